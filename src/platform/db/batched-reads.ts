import DataLoader from 'dataloader';

/** At most this many keys a query. */
const MAX_BATCH = 100;

/**
 * One read by key, shared by the requests that arrive together: their keys are gathered until the
 * event loop has taken every request it had ready, then read in one query (`= any(...)`). Under
 * load a request's own round trip to the database cost more than its work (a signed-in search at
 * a million recipes: one core busy, a third of it in socket writes). Nothing is kept: each query is
 * sent after the requests it serves arrived, so none sees older data than a read of its own would.
 * For a request's reads outside a unit of work (the query runs outside any transaction).
 */
export function batchedReads<K, V>(
  readMany: (keys: readonly K[]) => Promise<ReadonlyMap<K, V>>,
): (key: K) => Promise<V | undefined> {
  const loader = new DataLoader<K, V | undefined>(
    async (keys) => {
      const found = await readMany(keys);
      return keys.map((key) => found.get(key));
    },
    { cache: false, batchScheduleFn: (send) => setImmediate(send), maxBatchSize: MAX_BATCH },
  );
  return (key) => loader.load(key);
}
