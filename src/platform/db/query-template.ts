import { sql, type Compilable, type Kysely } from 'kysely';

/**
 * A query whose shape never changes between calls, built and compiled once, then run with each
 * call's values. Kysely's builder and compiler cost more than the rest of a simple read (a recipe's
 * detail at 50 connections: 15 % of the service's CPU, before its garbage), so hot reads whose
 * shape depends on nothing but their values are kept compiled.
 *
 * `build` receives stand-ins for the named values and must pass them on as values (parameters),
 * never as SQL text: the first call checks that every stand-in became a parameter and none is
 * left in the SQL, and refuses the template otherwise. The SQL is compiled by the first database
 * the template runs on (all of ours, PostgreSQL and PGlite, compile the same PostgreSQL).
 */
export class QueryTemplate<DB, Names extends string, Row> {
  readonly #build: (db: Kysely<DB>, values: Record<Names, string>) => Compilable<Row>;
  readonly #names: readonly Names[];
  #compiled: Compiled<Names> | undefined;

  constructor(
    names: readonly Names[],
    build: (db: Kysely<DB>, values: Record<Names, string>) => Compilable<Row>,
  ) {
    this.#names = names;
    this.#build = build;
  }

  async execute(db: Kysely<DB>, values: Record<Names, string>): Promise<Row[]> {
    const { fragments, slots } = (this.#compiled ??= this.#compile(db));
    const parameters = slots.map((slot) => ('name' in slot ? values[slot.name] : slot.value));
    // As raw SQL with its values: compiling that is joining strings, and the database's plugins
    // (the benchmarks' statement capture) still see each statement.
    const result = await sql<Row>(fragments, ...parameters).execute(db);
    return result.rows;
  }

  #compile(db: Kysely<DB>): Compiled<Names> {
    const standIns = Object.fromEntries(this.#names.map((name) => [name, standIn(name)])) as Record<
      Names,
      string
    >;
    // Without plugins: the stand-ins' statement is never run, so no plugin should see it.
    const compiled = this.#build(db.withoutPlugins(), standIns).compile();
    const byStandIn = new Map(this.#names.map((name) => [standIn(name), name]));
    const slots = compiled.parameters.map((value): Slot<Names> => {
      const name = typeof value === 'string' ? byStandIn.get(value) : undefined;
      return name === undefined ? { value } : { name };
    });
    for (const name of this.#names) {
      if (compiled.sql.includes(standIn(name)))
        throw new Error(`query template: ${name} is written into the SQL`);
      if (!slots.some((slot) => 'name' in slot && slot.name === name)) {
        throw new Error(`query template: ${name} is not a parameter of the query`);
      }
    }
    return { fragments: fragmentsOf(compiled.sql, slots.length), slots };
  }
}

type Slot<Names> = { name: Names } | { value: unknown };
interface Compiled<Names> {
  fragments: TemplateStringsArray;
  slots: ReadonlyArray<Slot<Names>>;
}

/** The SQL's text between its placeholders ($1, $2, … each once, in order, as kysely writes them). */
function fragmentsOf(text: string, count: number): TemplateStringsArray {
  const parts = text.split(/\$(\d+)/);
  const fragments = parts.filter((_, i) => i % 2 === 0);
  const numbers = parts.filter((_, i) => i % 2 === 1);
  if (numbers.length !== count || numbers.some((n, i) => Number(n) !== i + 1)) {
    throw new Error('query template: the SQL has text that reads as a placeholder');
  }
  return Object.assign(fragments, { raw: fragments });
}

function standIn(name: string): string {
  return `\u0000query-template:${name}\u0000`;
}
