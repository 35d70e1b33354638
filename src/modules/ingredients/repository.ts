import { sql, type Kysely } from 'kysely';
import type { IngredientRow, IngredientsTables, IngredientSource } from './tables.ts';

/** One ingredient as written to the table (id absent: the imported-id sequence assigns it). */
export interface IngredientRecord {
  id?: number;
  name: string;
  aliases: string[];
  category: string;
  default_unit: 'g' | 'ml' | 'piece';
  kcal: number;
  protein: number;
  carbs: number;
  fat: number;
  fiber: number;
  allergens: string[];
  diet: string[];
  density: number | null;
  piece_g: number | null;
  measures: Record<string, number>;
  usda_ndb: string | null;
  source: IngredientSource;
}

/** 17 parameters a row: 250 rows stay far below PostgreSQL's 65,535-parameter limit. */
const BATCH = 250;

export class IngredientsRepository {
  readonly #db: Kysely<IngredientsTables>;
  constructor(db: Kysely<IngredientsTables>) {
    this.#db = db;
  }

  listAll(): Promise<IngredientRow[]> {
    return this.#db.selectFrom('ingredients').selectAll().orderBy('id').execute();
  }

  /** Inserts or replaces rows by id, a few hundred per statement. */
  async upsertById(records: IngredientRecord[]): Promise<void> {
    for (let i = 0; i < records.length; i += BATCH) {
      await this.#db
        .insertInto('ingredients')
        .values(records.slice(i, i + BATCH).map(toValues))
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            name: eb.ref('excluded.name'),
            aliases: eb.ref('excluded.aliases'),
            category: eb.ref('excluded.category'),
            default_unit: eb.ref('excluded.default_unit'),
            kcal: eb.ref('excluded.kcal'),
            protein: eb.ref('excluded.protein'),
            carbs: eb.ref('excluded.carbs'),
            fat: eb.ref('excluded.fat'),
            fiber: eb.ref('excluded.fiber'),
            allergens: eb.ref('excluded.allergens'),
            diet: eb.ref('excluded.diet'),
            density: eb.ref('excluded.density'),
            piece_g: eb.ref('excluded.piece_g'),
            measures: eb.ref('excluded.measures'),
            usda_ndb: eb.ref('excluded.usda_ndb'),
            source: eb.ref('excluded.source'),
            search_text: eb.ref('excluded.search_text'),
            updated_at: new Date(),
          })),
        )
        .execute();
    }
  }

  /** Renames non-seed rows holding one of these names to "<name> (usda <ndb>)". */
  async renameImportedClashing(names: string[]): Promise<number> {
    const renamed = await this.#db
      .updateTable('ingredients')
      .set({
        name: sql<string>`name || ' (usda ' || coalesce(usda_ndb, id::text) || ')'`,
        search_text: sql<string>`search_text || ' (usda ' || coalesce(usda_ndb, id::text) || ')'`,
        updated_at: new Date(),
      })
      .where('source', '<>', 'seed')
      .where('name', 'in', names)
      .returning('id')
      .execute();
    return renamed.length;
  }

  /** Inserts new rows with sequence ids; a name that exists already is skipped. Answers how many went in. */
  async insertNew(records: IngredientRecord[]): Promise<number> {
    let inserted = 0;
    for (let i = 0; i < records.length; i += BATCH) {
      const rows = await this.#db
        .insertInto('ingredients')
        .values(records.slice(i, i + BATCH).map(({ id: _id, ...r }) => toValues(r)))
        .onConflict((oc) => oc.column('name').doNothing())
        .returning('id')
        .execute();
      inserted += rows.length;
    }
    return inserted;
  }
}

function toValues(r: IngredientRecord) {
  return {
    ...r,
    measures: JSON.stringify(r.measures),
    search_text: [r.name, ...r.aliases].join(' | ').toLowerCase(),
  };
}
