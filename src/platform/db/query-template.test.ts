import { randomBytes } from 'node:crypto';
import { PostgresQueryCompiler, sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './database.ts';
import { QueryTemplate } from './query-template.ts';

/** On PGlite and, with TEST_DATABASE_URL, on PostgreSQL in a schema of its own. */
let database: DatabaseHandle;
type Tables = { template_items: { id: string; owner: string; label: string } };
let db: Kysely<Tables>;
beforeAll(async () => {
  const url = process.env.TEST_DATABASE_URL;
  database = await openDatabase(
    url ? { url, schema: `q_${randomBytes(5).toString('hex')}`, poolSize: 2 } : {},
  );
  db = database.db as Kysely<Tables>;
  await sql`create table template_items (id text primary key, owner text not null, label text not null)`.execute(
    db,
  );
  await sql`insert into template_items values ('a', 'ann', 'apple'), ('b', 'ben', 'bread'), ('c', 'ann', 'cheese')`.execute(
    db,
  );
});
afterAll(async () => {
  if (database.schema !== 'public')
    await sql`drop schema ${sql.id(database.schema)} cascade`.execute(database.db);
  await database.close();
});

describe('QueryTemplate', () => {
  it('compiles once and runs with each call’s values, a value used twice and constants included', async () => {
    let builds = 0;
    const template = new QueryTemplate(['owner', 'label'], (tdb: Kysely<Tables>, { owner, label }) => {
      builds += 1;
      return tdb
        .selectFrom('template_items')
        .select(['id', 'label'])
        .where((eb) => eb.or([eb('owner', '=', owner), eb('label', '=', label), eb('id', '=', owner)]))
        .where('label', '!=', 'nothing') // a constant: kept as the parameter it was compiled as
        .orderBy('id');
    });
    expect(await template.execute(db, { owner: 'ann', label: 'none' })).toEqual([
      { id: 'a', label: 'apple' },
      { id: 'c', label: 'cheese' },
    ]);
    expect(await template.execute(db, { owner: 'b', label: 'apple' })).toEqual([
      { id: 'a', label: 'apple' },
      { id: 'b', label: 'bread' },
    ]);
    // A value that looks like SQL stays a value.
    expect(await template.execute(db, { owner: "' or true --", label: 'x' })).toEqual([]);
    expect(builds).toBe(1);
  });

  it('lets the database’s plugins see each statement run, with its values, and never the stand-ins', async () => {
    const seen: unknown[][] = [];
    const watched = db.withPlugin({
      transformQuery: (args) => {
        seen.push([...new PostgresQueryCompiler().compileQuery(args.node, args.queryId).parameters]);
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    });
    const template = new QueryTemplate(['id'], (tdb: Kysely<Tables>, { id }) =>
      tdb.selectFrom('template_items').select('label').where('id', '=', id),
    );
    expect(await template.execute(watched, { id: 'b' })).toEqual([{ label: 'bread' }]);
    expect(await template.execute(watched, { id: 'c' })).toEqual([{ label: 'cheese' }]);
    expect(seen).toEqual([['b'], ['c']]);
  });

  it('refuses a template whose value is written into the SQL or left out of the query', async () => {
    const literal = new QueryTemplate(['id'], (tdb: Kysely<Tables>, { id }) =>
      tdb.selectFrom('template_items').selectAll().where('id', '=', sql.lit(id)),
    );
    await expect(literal.execute(db, { id: 'a' })).rejects.toThrow('id is written into the SQL');
    const unused = new QueryTemplate(['id', 'owner'], (tdb: Kysely<Tables>, { id }) =>
      tdb.selectFrom('template_items').selectAll().where('id', '=', id),
    );
    await expect(unused.execute(db, { id: 'a', owner: 'ann' })).rejects.toThrow('owner is not a parameter');
  });
});
