import { describe, expect, it } from 'vitest';
import { FAVOURITES_CACHE_MAX_PER_USER, FavouritesCache } from './favourites-cache.ts';

describe('FavouritesCache', () => {
  it('keeps a read unless the user was forgotten while it ran', () => {
    const cache = new FavouritesCache();
    const before = cache.generation;
    cache.forget('someone else'); // any forgetting: the read may have missed it
    expect([...cache.set('u', ['r1'], before)!]).toEqual(['r1']);
    expect(cache.get('u')).toBeUndefined();
    cache.set('u', ['r1'], cache.generation);
    expect([...cache.get('u')!]).toEqual(['r1']);
    cache.forget('u');
    expect(cache.get('u')).toBeUndefined();
  });

  it('remembers a user with too many as null (asked page by page), and holds a bounded number of ids', () => {
    const cache = new FavouritesCache();
    const many = Array.from({ length: FAVOURITES_CACHE_MAX_PER_USER + 1 }, (_, i) => `r${i}`);
    expect(cache.set('collector', many, cache.generation)).toBeNull();
    expect(cache.get('collector')).toBeNull();
    const full = Array.from({ length: FAVOURITES_CACHE_MAX_PER_USER }, (_, i) => `r${i}`);
    for (let user = 0; user < 300; user++) cache.set(`u${user}`, full, cache.generation);
    // 300 × 500 ids is past the bound: the least recently used went first.
    expect(cache.get('collector')).toBeUndefined();
    expect(cache.get('u0')).toBeUndefined();
    expect(cache.get('u299')?.size).toBe(FAVOURITES_CACHE_MAX_PER_USER);
  });
});
