import { describe, expect, it } from 'vitest';
import { SearchCache, type SearchHits } from './search-cache.ts';

const hits = (total: number): SearchHits => ({ ids: [`id-${total}`], total });

describe('SearchCache', () => {
  it('reuses an answer until the TTL passes, then loads again', async () => {
    let now = 1_000;
    const cache = new SearchCache({ ttlMs: 100, maxEntries: 10, clock: () => now });
    let loads = 0;
    const load = async () => hits(++loads);
    expect(await cache.get('k', load)).toEqual(hits(1));
    now += 99;
    expect(await cache.get('k', load)).toEqual(hits(1));
    now += 1;
    expect(await cache.get('k', load)).toEqual(hits(2));
    expect(await cache.get('other', load)).toEqual(hits(3));
  });

  it('shares one load between concurrent misses of a key', async () => {
    const cache = new SearchCache({ ttlMs: 1_000, maxEntries: 10 });
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const load = async () => {
      loads += 1;
      await gate;
      return hits(7);
    };
    const pending = Promise.all([cache.get('k', load), cache.get('k', load), cache.get('k', load)]);
    release();
    expect(await pending).toEqual([hits(7), hits(7), hits(7)]);
    expect(loads).toBe(1);
  });

  it('does not remember a failed load', async () => {
    const cache = new SearchCache({ ttlMs: 1_000, maxEntries: 10 });
    await expect(cache.get('k', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(await cache.get('k', async () => hits(1))).toEqual(hits(1));
  });

  it('evicts the oldest entry beyond the limit, and clear() forgets everything', async () => {
    const cache = new SearchCache({ ttlMs: 1_000, maxEntries: 2 });
    let loads = 0;
    const load = async () => hits(++loads);
    await cache.get('a', load);
    await cache.get('b', load);
    await cache.get('c', load); // evicts a
    expect(await cache.get('b', load)).toEqual(hits(2));
    expect(await cache.get('a', load)).toEqual(hits(4));
    cache.clear();
    expect(await cache.get('b', load)).toEqual(hits(5));
  });
});
