import {
  PostgresQueryCompiler,
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

export interface CapturedQuery {
  sql: string;
  parameters: readonly unknown[];
  /** Queries that were in flight together share a wave (e.g. a page and its count in Promise.all). */
  wave: number;
}

/**
 * A kysely instance that records the SQL it runs (compiled exactly as the PostgreSQL dialect
 * compiles it), so that the raw-driver reference of a benchmark runs the very statements a
 * repository issues instead of a hand-written imitation, with the same concurrency.
 */
export function capturingDb<DB>(db: Kysely<DB>): { db: Kysely<DB>; captured: CapturedQuery[] } {
  const captured: CapturedQuery[] = [];
  const compiler = new PostgresQueryCompiler();
  let inFlight = 0;
  let wave = -1;
  const plugin: KyselyPlugin = {
    transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
      const compiled = compiler.compileQuery(args.node, args.queryId);
      if (inFlight === 0) wave += 1;
      inFlight += 1;
      captured.push({ sql: compiled.sql, parameters: compiled.parameters, wave });
      return args.node;
    },
    transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      inFlight -= 1;
      return Promise.resolve(args.result);
    },
  };
  return { db: db.withPlugin(plugin), captured };
}

/** Runs the captured statements on the raw driver: waves one after another, a wave's queries together. */
export function replay(
  rawQuery: (text: string, params: unknown[]) => Promise<unknown[]>,
  captured: readonly CapturedQuery[],
): () => Promise<unknown[][]> {
  const waves: CapturedQuery[][] = [];
  for (const q of captured) (waves[q.wave] ??= []).push(q);
  return async () => {
    const out: unknown[][] = [];
    for (const wave of waves)
      out.push(...(await Promise.all(wave.map((q) => rawQuery(q.sql, [...q.parameters])))));
    return out;
  };
}
