import type { PreferencesRepository } from './repository.ts';
import type { PreferenceKind } from './tables.ts';

export const NEUTRAL_WEIGHT = 0.5;
const DIFFICULTIES = ['easy', 'medium', 'hard'] as const;

export interface Preferences {
  cuisine_weights: Record<string, number>;
  difficulty_weights: Record<string, number>;
  ingredient_weights: Record<string, number>;
}

/** What a rating or a cooked meal tells about taste. */
export interface TasteSignal {
  cuisine: string;
  difficulty: string;
  ingredientNames: string[];
}

/**
 * Preference learning. Every weight lives in [0, 1], neutral 0.5. An event moves a weight a bounded
 * fraction of the way toward 1 (liked) or 0 (disliked):
 *
 *   w' = w + rate · (target − w)
 *
 * so a weight never leaves [0, 1] and each further step counts for less near the ends.
 *   rating 5 → target 1, rate 0.15      rating 1 → target 0, rate 0.15
 *   rating 4 → target 1, rate 0.10      rating 2 → target 0, rate 0.10
 *   rating 3 → no change                cooked    → target 1, rate 0.05
 * Cuisine and difficulty move at `rate`; each ingredient of the recipe at rate / 2, because one
 * dish says less about each of its ingredients than about the dish as a whole.
 */
export class PreferencesService {
  readonly #repo: PreferencesRepository;
  constructor(repo: PreferencesRepository) {
    this.#repo = repo;
  }

  async get(userId: string): Promise<Preferences> {
    const out: Preferences = {
      cuisine_weights: {},
      difficulty_weights: Object.fromEntries(DIFFICULTIES.map((d) => [d, NEUTRAL_WEIGHT])),
      ingredient_weights: {},
    };
    for (const row of await this.#repo.list(userId)) {
      const bucket = bucketOf(out, row.kind);
      bucket[row.key] = round(row.weight);
    }
    return out;
  }

  reset(userId: string): Promise<void> {
    return this.#repo.reset(userId);
  }

  async learnFromRating(userId: string, rating: number, signal: TasteSignal): Promise<void> {
    const step = RATING_STEPS[rating];
    if (step) await this.#apply(userId, signal, step.target, step.rate);
  }

  learnFromCooking(userId: string, signal: TasteSignal): Promise<void> {
    return this.#apply(userId, signal, 1, COOK_RATE);
  }

  async #apply(userId: string, signal: TasteSignal, target: number, rate: number): Promise<void> {
    const dish: { kind: PreferenceKind; key: string }[] = [];
    if (signal.cuisine) dish.push({ kind: 'cuisine', key: signal.cuisine.toLowerCase() });
    if (signal.difficulty) dish.push({ kind: 'difficulty', key: signal.difficulty.toLowerCase() });
    await this.#repo.nudge(userId, dish, target, rate);
    const ingredients = [...new Set(signal.ingredientNames.map((n) => n.toLowerCase()))].map((key) => ({
      kind: 'ingredient' as const,
      key,
    }));
    await this.#repo.nudge(userId, ingredients, target, rate / 2);
  }
}

const COOK_RATE = 0.05;
const RATING_STEPS: Record<number, { target: number; rate: number } | undefined> = {
  1: { target: 0, rate: 0.15 },
  2: { target: 0, rate: 0.1 },
  4: { target: 1, rate: 0.1 },
  5: { target: 1, rate: 0.15 },
};

function bucketOf(p: Preferences, kind: PreferenceKind): Record<string, number> {
  if (kind === 'cuisine') return p.cuisine_weights;
  if (kind === 'difficulty') return p.difficulty_weights;
  return p.ingredient_weights;
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;
