import { describe, expect, it } from 'vitest';
import { batchedReads } from './batched-reads.ts';

describe('batchedReads', () => {
  it('reads the keys asked for together in one call, keeps nothing, and splits past 100 keys', async () => {
    const calls: number[][] = [];
    let stored = 1;
    const read = batchedReads(async (keys: readonly number[]) => {
      calls.push([...keys]);
      return new Map(keys.filter((k) => k !== 0).map((k) => [k, k * 10 + stored]));
    });
    expect(await Promise.all([read(1), read(2), read(0), read(1)])).toEqual([11, 21, undefined, 11]);
    expect(calls).toEqual([[1, 2, 0, 1]]);
    stored = 2; // changed since: the next read sees it
    expect(await read(1)).toBe(12);
    expect(calls).toHaveLength(2);
    const many = Array.from({ length: 150 }, (_, i) => i + 1);
    expect((await Promise.all(many.map(read))).at(-1)).toBe(1502);
    expect(calls.slice(2).map((c) => c.length)).toEqual([100, 50]);
  });

  it('fails every read of a failed call, and reads again at the next', async () => {
    let fail = true;
    const read = batchedReads(async (keys: readonly string[]) => {
      if (fail) throw new Error('database away');
      return new Map(keys.map((k) => [k, k.toUpperCase()]));
    });
    const results = await Promise.allSettled([read('a'), read('b')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await read('a')).toBe('A');
  });
});
