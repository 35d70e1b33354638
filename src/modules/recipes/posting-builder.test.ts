import { describe, expect, it } from 'vitest';
import { PostingBuilder } from './posting-builder.ts';

describe('PostingBuilder', () => {
  it("groups entries by lexeme, each lexeme's documents in the order they were added", () => {
    const builder = new PostingBuilder();
    builder.add('soup', 0, 0.5);
    builder.add('bean', 0, 0.25);
    builder.add('soup', 1, 0.125);
    builder.add('stew', 2, 1);
    builder.add('bean', 3, 0.75);
    const postings = builder.build();
    const plain = Object.fromEntries(
      [...postings].map(([lexeme, p]) => [lexeme, { ords: [...p.ords], scores: [...p.scores] }]),
    );
    expect(plain).toEqual({
      soup: { ords: [0, 1], scores: [0.5, 0.125] },
      bean: { ords: [0, 3], scores: [0.25, 0.75] },
      stew: { ords: [2], scores: [1] },
    });
  });

  it('keeps every entry past its first capacity (grown, not overwritten), scores in single precision', () => {
    const builder = new PostingBuilder();
    const documents = 50_000;
    for (let ord = 0; ord < documents; ord++) {
      builder.add('every', ord, Math.fround(ord / 7));
      if (ord % 2 === 0) builder.add('even', ord, Math.fround(1 / (ord + 1)));
    }
    const postings = builder.build();
    const every = postings.get('every')!;
    const even = postings.get('even')!;
    expect(every.ords.length).toBe(documents);
    expect(even.ords.length).toBe(documents / 2);
    expect(every.ords[documents - 1]).toBe(documents - 1);
    expect(every.scores[12_345]).toBe(Math.fround(12_345 / 7));
    expect(even.ords[24_999]).toBe(49_998);
    expect(even.scores[24_999]).toBe(Math.fround(1 / 49_999));
  });

  it('builds an empty map from no entries', () => {
    expect(new PostingBuilder().build().size).toBe(0);
  });
});
