/**
 * The postings of a full index load, built without a growing array per lexeme: every (lexeme,
 * document, score) is appended to three flat typed arrays, then grouped by lexeme in one counting
 * sort into two exact-size arrays that each lexeme's posting is a view of. Loading 100,000 recipes
 * (some 5 million entries) this way leaves the garbage collector a few large buffers instead of
 * millions of array growths and copies, which is most of what a load's heap grew by.
 */
export class PostingBuilder {
  readonly #ids = new Map<string, number>();
  readonly #lexemes: string[] = [];
  // Small at first: an owner's few recipes are loaded into an index of their own per search.
  #lexeme = new Int32Array(256);
  #ord = new Int32Array(256);
  #score = new Float32Array(256);
  #count = 0;

  /** Entries of one lexeme must be added in ascending `ord` (documents are appended in order). */
  add(lexeme: string, ord: number, score: number): void {
    let id = this.#ids.get(lexeme);
    if (id === undefined) {
      id = this.#lexemes.length;
      this.#ids.set(lexeme, id);
      this.#lexemes.push(lexeme);
    }
    if (this.#count === this.#ord.length) this.#grow();
    this.#lexeme[this.#count] = id;
    this.#ord[this.#count] = ord;
    this.#score[this.#count] = score; // single-precision values (Math.fround): held exactly
    this.#count += 1;
  }

  /** Each lexeme's documents, in the order they were added, and their scores. */
  build(): Map<string, { ords: Int32Array; scores: Float32Array }> {
    const count = this.#count;
    const lexemeCount = this.#lexemes.length;
    const start = new Int32Array(lexemeCount + 1);
    for (let i = 0; i < count; i++) start[this.#lexeme[i]! + 1]! += 1;
    for (let l = 0; l < lexemeCount; l++) start[l + 1]! += start[l]!;
    const next = start.slice(0, lexemeCount);
    const ords = new Int32Array(count);
    const scores = new Float32Array(count);
    for (let i = 0; i < count; i++) {
      const at = next[this.#lexeme[i]!]!++;
      ords[at] = this.#ord[i]!;
      scores[at] = this.#score[i]!;
    }
    const postings = new Map<string, { ords: Int32Array; scores: Float32Array }>();
    this.#lexemes.forEach((lexeme, l) => {
      postings.set(lexeme, {
        ords: ords.subarray(start[l]!, start[l + 1]!),
        scores: scores.subarray(start[l]!, start[l + 1]!),
      });
    });
    return postings;
  }

  #grow(): void {
    const capacity = this.#ord.length * 2;
    const grown = <T extends Int32Array | Float32Array>(old: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(old);
      return next;
    };
    this.#lexeme = grown(this.#lexeme, (n) => new Int32Array(n));
    this.#ord = grown(this.#ord, (n) => new Int32Array(n));
    this.#score = grown(this.#score, (n) => new Float32Array(n));
  }
}
