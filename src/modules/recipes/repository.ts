import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { QueryTemplate } from '../../platform/db/query-template.ts';
import type { Difficulty, MealType, Viewer } from './contract.ts';
import type { QueryTerm, SearchDocument } from './search-index.ts';
import type { RecipeIngredientRow, RecipeRow, RecipesTables } from './tables.ts';

/** Everything the service writes for one recipe; derived columns (nutrition, fits, ...) included. */
export interface RecipeValues {
  title: string;
  description: string;
  cuisine: string;
  difficulty: Difficulty;
  prep_time: number;
  cook_time: number;
  servings: number;
  meal_types: string[];
  is_public: boolean;
  steps: string[];
  calories: number;
  protein: number;
  carbs: number;
  fat: number;
  fiber: number;
  allergens: string[];
  fits: string[];
  ingredient_names: string;
}

export interface IngredientLineValues {
  ingredient_id: number;
  quantity: number;
  unit: string;
}

export interface CatalogRecipeValues extends RecipeValues {
  slug: string;
  seed_hash: string;
  lines: IngredientLineValues[];
}

/** What planners' candidate reads filter on (search filters in memory: search-index.ts). */
export interface RecipeFilter {
  cuisines?: readonly string[] | undefined;
  maxTime?: number | undefined;
  mealType?: MealType | undefined;
  fitsAll?: readonly string[] | undefined;
  withoutAllergens?: readonly string[] | undefined;
}

/** One bounded draw of planner candidates for a meal type, optionally narrowed to a source. */
export interface PoolDraw {
  mealType: MealType;
  size: number;
  ownerId?: string | undefined;
  cuisines?: readonly string[] | undefined;
  ingredientIds?: readonly number[] | undefined;
}

export interface SummaryRow {
  id: string;
  title: string;
  description: string;
  cuisine: string;
  difficulty: Difficulty;
  prep_time: number;
  cook_time: number;
  servings: number;
  calories: number;
  rating_count: number;
  rating_sum: number;
  image_url: string | null;
  is_favourite: boolean;
}

export type StoredRecipe = Omit<RecipeRow, 'search' | 'seed_hash'>;
export type DetailRow = StoredRecipe & { is_favourite: boolean };

export interface HistoryRow {
  recipe_id: string | null;
  title: string;
  servings: number;
  cooked_at: Date;
}

type Db = Kysely<RecipesTables>;
type RecipeEb = ExpressionBuilder<RecipesTables & { r: RecipesTables['recipes'] }, 'r'>;

/** Row columns without the tsvector and the seeding bookkeeping. */
const RECIPE_COLUMNS = [
  'r.id',
  'r.slug',
  'r.owner_id',
  'r.title',
  'r.description',
  'r.cuisine',
  'r.difficulty',
  'r.prep_time',
  'r.cook_time',
  'r.total_time',
  'r.servings',
  'r.meal_types',
  'r.is_public',
  'r.steps',
  'r.images',
  'r.calories',
  'r.protein',
  'r.carbs',
  'r.fat',
  'r.fiber',
  'r.allergens',
  'r.fits',
  'r.ingredient_names',
  'r.rating_count',
  'r.rating_sum',
  'r.created_at',
  'r.updated_at',
] as const;

type LineTuple = [ingredientId: number, quantity: number, unit: string];

/** A recipe's ingredient lines as one JSON column: one row per recipe instead of one per line. */
const LINE_TUPLES = sql<LineTuple[]>`coalesce((
  select json_agg(json_build_array(ri.ingredient_id, ri.quantity, ri.unit) order by ri.position)
  from recipe_ingredients ri where ri.recipe_id = r.id), '[]'::json)`.as('line_tuples');

function linesFromTuples(recipeId: string, tuples: readonly LineTuple[]): RecipeIngredientRow[] {
  return tuples.map(([ingredientId, quantity, unit], index) => ({
    recipe_id: recipeId,
    position: index + 1,
    ingredient_id: ingredientId,
    quantity,
    unit,
  }));
}

/** 6 parameters a line, 20 a recipe: far below PostgreSQL's 65,535-parameter limit. */
const LINE_BATCH = 2000;
const RECIPE_BATCH = 500;

/**
 * Visibility: catalog (no owner) and public recipes for everyone, private ones for their owner;
 * admins see everything unless `adminSeesAll` is off (planners use only what the admin may cook).
 */
function visibleTo(eb: RecipeEb, viewer: Viewer | undefined, adminSeesAll = true): Expression<SqlBool> {
  if (viewer?.isAdmin && adminSeesAll) return sql<SqlBool>`true`;
  const shared = [eb('r.owner_id', 'is', null), eb('r.is_public', '=', true)];
  return eb.or(viewer ? [...shared, eb('r.owner_id', '=', viewer.id)] : shared);
}

function isFavourite(eb: RecipeEb, viewer: Viewer | undefined) {
  if (!viewer) return sql<boolean>`false`.as('is_favourite');
  return eb
    .exists(
      eb
        .selectFrom('recipe_favourites as f')
        .select(sql`1`.as('one'))
        .whereRef('f.recipe_id', '=', 'r.id')
        .where('f.user_id', '=', viewer.id),
    )
    .$castTo<boolean>()
    .as('is_favourite');
}

/** The detail read of each kind of viewer, kept compiled: the route every recipe page calls. */
const DETAIL = {
  anonymous: new QueryTemplate(['id'], (db: Db, { id }) => detailQuery(db, id, undefined)),
  member: new QueryTemplate(['id', 'viewerId'], (db: Db, { id, viewerId }) =>
    detailQuery(db, id, { id: viewerId, isAdmin: false }),
  ),
  admin: new QueryTemplate(['id', 'viewerId'], (db: Db, { id, viewerId }) =>
    detailQuery(db, id, { id: viewerId, isAdmin: true }),
  ),
};

function detailQuery(db: Db, id: string, viewer: Viewer | undefined) {
  return db
    .selectFrom('recipes as r')
    .select((eb) => [...RECIPE_COLUMNS, isFavourite(eb, viewer), LINE_TUPLES])
    .where('r.id', '=', id)
    .where((eb) => visibleTo(eb, viewer));
}

/**
 * Full-text query text for to_tsquery: the words of `q` joined with AND, the last one as a prefix
 * (so "chick" finds chicken while the user is still typing). Only letters and digits survive, so
 * no tsquery operator can be injected. Undefined when `q` has no words.
 */
export function tsQueryText(q: string): string | undefined {
  const words = q
    .toLowerCase()
    .replace(/['’]/g, '') // "mom's" is one word, as the English parser treats it
    .match(/[\p{L}\p{N}]+/gu)
    ?.slice(0, 12);
  if (!words?.length) return undefined;
  const last = words.length - 1;
  return words.map((w, i) => (i === last ? `${w}:*` : w)).join(' & ');
}

/** One entry of the search change log: a recipe changed, or a user's favourites did. */
export type SearchChange = { seq: number; recipeId: string } | { seq: number; favouritesOf: string };

export class RecipesRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  transaction<T>(work: (repo: RecipesRepository) => Promise<T>): Promise<T> {
    return this.#db.transaction().execute((trx) => work(new RecipesRepository(trx)));
  }

  // ---- reading recipes -------------------------------------------------------------------------

  /** One recipe the viewer may see, with is_favourite for them. */
  findVisible(id: string, viewer: Viewer | undefined): Promise<DetailRow | undefined> {
    return this.#db
      .selectFrom('recipes as r')
      .select((eb) => [...RECIPE_COLUMNS, isFavourite(eb, viewer)])
      .where('r.id', '=', id)
      .where((eb) => visibleTo(eb, viewer))
      .executeTakeFirst();
  }

  /** findVisible plus the ingredient lines, in one query (the lines aggregated as JSON). */
  async findDetail(
    id: string,
    viewer: Viewer | undefined,
  ): Promise<(DetailRow & { lines: RecipeIngredientRow[] }) | undefined> {
    const [row] = !viewer
      ? await DETAIL.anonymous.execute(this.#db, { id })
      : await DETAIL[viewer.isAdmin ? 'admin' : 'member'].execute(this.#db, { id, viewerId: viewer.id });
    if (!row) return undefined;
    const { line_tuples: tuples, ...rest } = row;
    return { ...rest, lines: linesFromTuples(row.id, tuples) };
  }

  findManyVisible(ids: readonly string[], viewer: Viewer | undefined): Promise<StoredRecipe[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.#db
      .selectFrom('recipes as r')
      .select(RECIPE_COLUMNS)
      .where('r.id', 'in', [...ids])
      .where((eb) => visibleTo(eb, viewer))
      .execute();
  }

  /** Ingredient lines of the given recipes, in recipe order. */
  linesOf(recipeIds: readonly string[]): Promise<RecipeIngredientRow[]> {
    if (recipeIds.length === 0) return Promise.resolve([]);
    return this.#db
      .selectFrom('recipe_ingredients')
      .selectAll()
      .where('recipe_id', 'in', [...recipeIds])
      .orderBy('recipe_id')
      .orderBy('position')
      .execute();
  }

  /** Every recipe the viewer may cook that passes the filter, with their lines (two queries). */
  async candidates(
    viewer: Viewer,
    filter: RecipeFilter,
  ): Promise<{ recipes: StoredRecipe[]; lines: RecipeIngredientRow[] }> {
    const matching = this.#db
      .selectFrom('recipes as r')
      .where((eb) => visibleTo(eb, viewer, false))
      .where((eb) => this.#filter(eb, filter));
    const recipes = await matching.select(RECIPE_COLUMNS).orderBy('r.title').orderBy('r.id').execute();
    const lines = await this.#db
      .selectFrom('recipe_ingredients')
      .selectAll()
      .where('recipe_id', 'in', matching.select('r.id'))
      .orderBy('recipe_id')
      .orderBy('position')
      .execute();
    return { recipes, lines };
  }

  /**
   * The union of bounded draws (candidatePool in service.ts): each one the first `size` matching
   * ids at or after `pivot`, wrapping around to the start, so it reads `size` rows in id order from
   * the planner pool index, not the whole catalog. The rows and their lines come in the same query.
   */
  async candidatePool(
    viewer: Viewer,
    filter: RecipeFilter,
    draws: readonly PoolDraw[],
    pivot: string,
  ): Promise<{ recipes: StoredRecipe[]; lines: RecipeIngredientRow[] }> {
    if (draws.length === 0) return { recipes: [], lines: [] };
    const ids = sql.join(
      draws.map((d) => this.#draw(viewer, filter, d, pivot)),
      sql` union `,
    );
    const rows = await this.#db
      .selectFrom('recipes as r')
      .select([...RECIPE_COLUMNS, LINE_TUPLES])
      .where(sql<SqlBool>`r.id in (${ids})`)
      .orderBy('r.id')
      .execute();
    const recipes = rows.map(({ line_tuples: _lines, ...recipe }) => recipe);
    return { recipes, lines: rows.flatMap((r) => linesFromTuples(r.id, r.line_tuples)) };
  }

  #draw(viewer: Viewer, filter: RecipeFilter, draw: PoolDraw, pivot: string) {
    const side = (after: boolean) =>
      this.#db
        .selectFrom('recipes as r')
        .select(['r.id', sql.lit(after ? 0 : 1).as('part')])
        .where((eb) => visibleTo(eb, viewer, false))
        .where((eb) => this.#filter(eb, { ...filter, mealType: draw.mealType }))
        .where((eb) => narrowDraw(eb, draw))
        .where('r.id', after ? '>=' : '<', pivot)
        .orderBy('r.id')
        .limit(draw.size);
    return sql`(select d.id from (${side(true)} union all ${side(false)}) d order by d.part, d.id limit ${draw.size})`;
  }

  // ---- the search index's feed (search-feed.ts) -----------------------------------------------

  /** Recipes with these ids as the search index holds them, whatever their visibility. */
  async searchDocuments(ids: readonly string[]): Promise<SearchDocument[]> {
    const rows = await this.#searchDocumentQuery()
      .where('r.id', '=', sql<string>`any(${[...ids]}::uuid[])`)
      .execute();
    return rows.map(searchDocumentOf);
  }

  /** The next `limit` shared recipes (catalog and public) by id after `afterId`: a load in batches. */
  async sharedSearchDocuments(afterId: string | undefined, limit: number): Promise<SearchDocument[]> {
    const rows = await this.#searchDocumentQuery()
      .where((eb) => eb.or([eb('r.owner_id', 'is', null), eb('r.is_public', '=', true)]))
      .$if(afterId !== undefined, (qb) => qb.where('r.id', '>', afterId!))
      .orderBy('r.id')
      .limit(limit)
      .execute();
    return rows.map(searchDocumentOf);
  }

  /**
   * Private recipes (of one owner, or of everyone for an admin) that pass the filters and match
   * `tsQuery` (to_tsquery's stemmed text). Without words, the first `titleLimit` by title, then id
   * (the order the index pages by without words), and how many pass in all.
   */
  async privateSearchDocuments(
    ownerId: string | undefined,
    filters: PrivateSearchFilters,
    tsQuery: string | undefined,
    titleLimit: number,
  ): Promise<{ documents: SearchDocument[]; total: number }> {
    const rows = await this.#searchDocumentQuery()
      .select(sql<string>`count(*) over ()`.as('total'))
      .where('r.owner_id', 'is not', null)
      .where('r.is_public', '=', false)
      .$if(ownerId !== undefined, (qb) => qb.where('r.owner_id', '=', ownerId!))
      .where((eb) => eb.and(searchFilters(eb, filters)))
      // One owner's few recipes are found by owner and then tested (a common word's index entries
      // would cost more to intersect); an admin's search across owners goes through the index.
      .$if(tsQuery !== undefined && ownerId !== undefined, (qb) =>
        qb.where(sql<SqlBool>`coalesce(r.search @@ ${tsQuery!}::tsquery, false)`),
      )
      .$if(tsQuery !== undefined && ownerId === undefined, (qb) =>
        qb.where(sql<SqlBool>`r.search @@ ${tsQuery!}::tsquery`),
      )
      .$if(tsQuery === undefined, (qb) =>
        qb
          .orderBy(sql`r.title collate "C"`)
          .orderBy('r.id')
          .limit(titleLimit),
      )
      .execute();
    // The limit is at least 1, so no row means none passes.
    return { documents: rows.map(searchDocumentOf), total: rows.length > 0 ? Number(rows[0]!.total) : 0 };
  }

  /** How many recipes are shared (catalog and public): what an in-memory index would hold. */
  async sharedRecipeCount(): Promise<number> {
    const row = await this.#db
      .selectFrom('recipes as r')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where((eb) => eb.or([eb('r.owner_id', 'is', null), eb('r.is_public', '=', true)]))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Whether the RUM index (search-ranking migration) exists: it orders one-word searches by rank. */
  async hasRankingIndex(): Promise<boolean> {
    const result = await sql<{ found: boolean }>`
      select to_regclass('recipes_search_rum_idx') is not null as found`.execute(this.#db);
    return result.rows[0]?.found === true;
  }

  /**
   * A whole search in PostgreSQL, for when the shared recipes outgrow the in-memory index's budget:
   * what the viewer may see that passes the filters and matches every term, ranked as the index
   * ranks (each word's ts_rank, summed, over the number of words; one word is exactly ts_rank, which
   * the RUM index's distance orders by), then by title and id; and how many match.
   */
  async databaseSearch(
    viewer: Viewer | undefined,
    filters: PrivateSearchFilters,
    terms: readonly QueryTerm[] | undefined,
    page: { limit: number; offset: number },
    rankingIndex: boolean,
  ): Promise<{ documents: Array<{ document: SearchDocument; score: number }>; total: number }> {
    if (terms?.length === 0) return { documents: [], total: 0 };
    const queries = (terms ?? []).map((t) => sql`${tsQueryLiteral(t)}::tsquery`);
    const whole = sql`(${sql.join(queries, sql` && `)})`;
    const score =
      queries.length === 0
        ? sql<number>`0::real`
        : sql<number>`(${sql.join(
            queries.map((q) => sql`ts_rank(r.search, ${q})`),
            sql` + `,
          )}) / ${queries.length}::real`;
    const matching = (eb: RecipeEb): Expression<SqlBool> => {
      const all = [visibleTo(eb, viewer), ...searchFilters(eb, filters)];
      if (queries.length > 0) all.push(sql<SqlBool>`r.search @@ ${whole}`);
      return eb.and(all);
    };
    const order =
      queries.length === 0
        ? [sql`r.title collate "C"`, sql`r.id`]
        : queries.length === 1 && rankingIndex
          ? [sql`r.search <=> ${queries[0]!}`, sql`r.title collate "C"`, sql`r.id`]
          : [sql`${score} desc`, sql`r.title collate "C"`, sql`r.id`];
    const [rows, count] = await Promise.all([
      this.#searchDocumentQuery()
        .select(score.as('score'))
        .where(matching)
        .orderBy(sql.join(order))
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      this.#db
        .selectFrom('recipes as r')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where(matching)
        .executeTakeFirstOrThrow(),
    ]);
    return {
      documents: rows.map((row) => ({ document: searchDocumentOf(row), score: Number(row.score) })),
      total: Number(count.n),
    };
  }

  #searchDocumentQuery() {
    return this.#db.selectFrom('recipes as r').select([
      'r.id',
      'r.title',
      'r.owner_id',
      'r.is_public',
      'r.cuisine',
      'r.difficulty',
      'r.total_time',
      // Joined in SQL: a load reads 100,000 rows, and parsing two array literals a row cost
      // ~0.25 s of it. The tags are words of fixed vocabularies, never holding the separator.
      sql<string>`array_to_string(r.fits, ${TAG_SEPARATOR})`.as('fits_text'),
      sql<string>`array_to_string(r.meal_types, ${TAG_SEPARATOR})`.as('meal_types_text'),
      sql<string>`r.search::text`.as('vector'),
      'r.description',
      'r.prep_time',
      'r.cook_time',
      'r.servings',
      'r.calories',
      'r.rating_count',
      'r.rating_sum',
      sql<string | null>`r.images[1]`.as('image_url'),
    ]);
  }

  /**
   * Where the change log stands: its highest number and the ranges of numbers missing below it
   * (transactions still running, or rolled back), found in the database so that a large log (a bulk
   * import writes one entry a recipe) is not sent over.
   */
  async searchLog(): Promise<{ last: number; gaps: Array<[number, number]> }> {
    const [top, holes] = await Promise.all([
      sql<{ last: string | null }>`select max(seq)::text as last from recipe_search_changes`.execute(
        this.#db,
      ),
      sql<{ lo: string; hi: string }>`
        select (seq + 1)::text as lo, (next - 1)::text as hi
        from (select seq, lead(seq) over (order by seq) as next from recipe_search_changes) s
        where next > seq + 1`.execute(this.#db),
    ]);
    return {
      last: Number(top.rows[0]?.last ?? 0),
      gaps: holes.rows.map((h) => [Number(h.lo), Number(h.hi)]),
    };
  }

  /** Change-log entries after `after`, or within one of the `gaps` (inclusive ranges). */
  async searchChanges(after: number, gaps: readonly (readonly [number, number])[]): Promise<SearchChange[]> {
    const ranges = gaps.map(([lo, hi]) => sql` or seq between ${lo}::int8 and ${hi}::int8`);
    const result = await sql<{ seq: string; recipe_id: string; favourited_by: string | null }>`
      select seq::text, recipe_id, favourited_by from recipe_search_changes
      where seq > ${after}::int8${sql.join(ranges, sql``)}`.execute(this.#db);
    return result.rows.map((r) =>
      r.favourited_by === null
        ? { seq: Number(r.seq), recipeId: r.recipe_id }
        : { seq: Number(r.seq), favouritesOf: r.favourited_by },
    );
  }

  /** Forgets changes older than `ageSeconds` (every index has read them long since). */
  async pruneSearchChanges(ageSeconds: number): Promise<void> {
    await sql`delete from recipe_search_changes
              where changed_at < now() - make_interval(secs => ${ageSeconds})`.execute(this.#db);
  }

  /** The words of a search as PostgreSQL's english configuration stems them (to_tsquery's text). */
  async stemQuery(queryText: string): Promise<string> {
    const result = await sql<{ q: string }>`select to_tsquery('english', ${queryText})::text as q`.execute(
      this.#db,
    );
    return result.rows[0]!.q;
  }

  /** Which of these recipes the user has favourited. */
  /** Up to `limit` of the user's favourite recipe ids (any order). */
  async favouriteIds(userId: string, limit: number): Promise<string[]> {
    const rows = await this.#db
      .selectFrom('recipe_favourites')
      .select('recipe_id')
      .where('user_id', '=', userId)
      .limit(limit)
      .execute();
    return rows.map((r) => r.recipe_id);
  }

  async favouritesAmong(userId: string, recipeIds: readonly string[]): Promise<Set<string>> {
    if (recipeIds.length === 0) return new Set();
    const rows = await this.#db
      .selectFrom('recipe_favourites')
      .select('recipe_id')
      .where('user_id', '=', userId)
      .where('recipe_id', '=', sql<string>`any(${[...recipeIds]}::uuid[])`)
      .execute();
    return new Set(rows.map((r) => r.recipe_id));
  }

  #filter(eb: RecipeEb, filter: RecipeFilter): Expression<SqlBool> {
    const all: Expression<SqlBool>[] = [];
    if (filter.cuisines?.length) all.push(eb('r.cuisine', 'in', [...filter.cuisines]));
    if (filter.maxTime !== undefined) all.push(eb('r.total_time', '<=', filter.maxTime));
    if (filter.mealType) all.push(sql<SqlBool>`r.meal_types @> array[${filter.mealType}]::text[]`);
    if (filter.fitsAll?.length) all.push(sql<SqlBool>`r.fits @> ${[...filter.fitsAll]}::text[]`);
    if (filter.withoutAllergens?.length) {
      all.push(sql<SqlBool>`not (r.allergens && ${[...filter.withoutAllergens]}::text[])`);
    }
    return eb.and(all);
  }

  // ---- writing recipes -------------------------------------------------------------------------

  async insert(ownerId: string | null, values: RecipeValues, lines: IngredientLineValues[]): Promise<string> {
    const { id } = await this.#db
      .insertInto('recipes')
      .values({ ...values, owner_id: ownerId, slug: null, seed_hash: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.#insertLines(id, lines);
    return id;
  }

  /** Replaces a recipe's fields and lines; editing a catalog recipe detaches it from its seed. */
  async update(id: string, values: RecipeValues, lines: IngredientLineValues[]): Promise<void> {
    await this.#db
      .updateTable('recipes')
      .set({ ...values, seed_hash: null, updated_at: new Date() })
      .where('id', '=', id)
      .execute();
    await this.#db.deleteFrom('recipe_ingredients').where('recipe_id', '=', id).execute();
    await this.#insertLines(id, lines);
  }

  /** Deletes the recipe (lines, ratings, favourites go with it; history keeps its title). */
  async delete(id: string): Promise<void> {
    const gone = await this.#db
      .deleteFrom('recipes')
      .where('id', '=', id)
      .returning('slug')
      .executeTakeFirst();
    if (gone?.slug) {
      await this.#db
        .insertInto('retired_catalog_slugs')
        .values({ slug: gone.slug })
        .onConflict((oc) => oc.column('slug').doNothing())
        .execute();
    }
  }

  /** Catalog recipes without any image, by title (the image backfill's work list). */
  catalogWithoutImages(): Promise<{ id: string; title: string; description: string }[]> {
    return this.#db
      .selectFrom('recipes')
      .select(['id', 'title', 'description'])
      .where('owner_id', 'is', null)
      .where(sql<boolean>`cardinality(images) = 0`)
      .orderBy('title')
      .orderBy('id')
      .execute();
  }

  /** Hero images go first, step images last. Answers whether the recipe exists. */
  async addImage(id: string, url: string, kind: 'hero' | 'step'): Promise<boolean> {
    const images =
      kind === 'hero'
        ? sql<string[]>`array_prepend(${url}::text, images)`
        : sql<string[]>`array_append(images, ${url}::text)`;
    const row = await this.#db
      .updateTable('recipes')
      .set({ images, updated_at: new Date() })
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async #insertLines(recipeId: string, lines: IngredientLineValues[]): Promise<void> {
    if (lines.length === 0) return;
    await this.#db
      .insertInto('recipe_ingredients')
      .values(lines.map((l, i) => ({ recipe_id: recipeId, position: i + 1, ...l })))
      .execute();
  }

  // ---- catalog seeding -------------------------------------------------------------------------

  /** Slug → seed hash (null once an admin edited it) of every catalog recipe, plus retired slugs. */
  async catalogState(): Promise<{ existing: Map<string, string | null>; retired: Set<string> }> {
    const [rows, retired] = await Promise.all([
      this.#db.selectFrom('recipes').select(['slug', 'seed_hash']).where('slug', 'is not', null).execute(),
      this.#db.selectFrom('retired_catalog_slugs').select('slug').execute(),
    ]);
    return {
      existing: new Map(rows.map((r) => [r.slug as string, r.seed_hash])),
      retired: new Set(retired.map((r) => r.slug)),
    };
  }

  /** Inserts new catalog recipes and their lines, a few hundred per statement. */
  async insertCatalog(recipes: CatalogRecipeValues[]): Promise<void> {
    for (let i = 0; i < recipes.length; i += RECIPE_BATCH) {
      const chunk = recipes.slice(i, i + RECIPE_BATCH);
      const inserted = await this.#db
        .insertInto('recipes')
        .values(chunk.map(({ lines: _lines, ...values }) => ({ ...values, owner_id: null, is_public: true })))
        // Another instance seeding at the same moment may have won a slug: skip it, keep going.
        .onConflict((oc) => oc.column('slug').doNothing())
        .returning(['id', 'slug'])
        .execute();
      const idBySlug = new Map(inserted.map((r) => [r.slug, r.id]));
      const lines = chunk.flatMap((recipe) => {
        const recipeId = idBySlug.get(recipe.slug);
        return recipeId
          ? recipe.lines.map((l, index) => ({ recipe_id: recipeId, position: index + 1, ...l }))
          : [];
      });
      for (let j = 0; j < lines.length; j += LINE_BATCH) {
        await this.#db
          .insertInto('recipe_ingredients')
          .values(lines.slice(j, j + LINE_BATCH))
          .execute();
      }
    }
  }

  /** Inserts or replaces one catalog recipe by slug and brings it back if it was retired. */
  async upsertCatalog(recipe: CatalogRecipeValues): Promise<string> {
    const { lines, ...values } = recipe;
    const { id } = await this.#db
      .insertInto('recipes')
      .values({ ...values, owner_id: null, is_public: true })
      .onConflict((oc) =>
        oc.column('slug').doUpdateSet({ ...values, owner_id: null, is_public: true, updated_at: new Date() }),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.#db.deleteFrom('recipe_ingredients').where('recipe_id', '=', id).execute();
    await this.#insertLines(id, lines);
    await this.#db.deleteFrom('retired_catalog_slugs').where('slug', '=', recipe.slug).execute();
    return id;
  }

  // ---- favourites, ratings, history ------------------------------------------------------------

  /** Answers false when the recipe no longer exists (deleted since it was read). */
  async setFavourite(userId: string, recipeId: string, on: boolean): Promise<boolean> {
    if (on) {
      try {
        await this.#db
          .insertInto('recipe_favourites')
          .values({ user_id: userId, recipe_id: recipeId })
          .onConflict((oc) => oc.columns(['user_id', 'recipe_id']).doNothing())
          .execute();
      } catch (error) {
        if (isForeignKeyViolation(error)) return false;
        throw error;
      }
    } else {
      await this.#db
        .deleteFrom('recipe_favourites')
        .where('user_id', '=', userId)
        .where('recipe_id', '=', recipeId)
        .execute();
    }
    return true;
  }

  /** The caller's favourites that they may still see, most recently added first. */
  async favourites(
    viewer: Viewer,
    page: { limit: number; offset: number },
  ): Promise<{ rows: (SummaryRow & { favourited_at: Date })[]; total: number }> {
    const base = this.#db
      .selectFrom('recipe_favourites as f')
      .innerJoin('recipes as r', 'r.id', 'f.recipe_id')
      .where('f.user_id', '=', viewer.id)
      .where((eb) => visibleTo(eb as unknown as RecipeEb, viewer));
    const [rows, count] = await Promise.all([
      base
        .select([
          'r.id',
          'r.title',
          'r.description',
          'r.cuisine',
          'r.difficulty',
          'r.prep_time',
          'r.cook_time',
          'r.servings',
          'r.calories',
          'r.rating_count',
          'r.rating_sum',
          sql<string | null>`r.images[1]`.as('image_url'),
          sql<boolean>`true`.as('is_favourite'),
          'f.created_at as favourited_at',
        ])
        .orderBy('f.created_at', 'desc')
        .orderBy('r.id')
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  /**
   * Stores (or replaces) the user's rating and recomputes the recipe's aggregate. The recipe row is
   * locked first, so concurrent ratings of one recipe apply one after another and the aggregate
   * read after each write sees every committed rating.
   */
  async rate(
    userId: string,
    recipeId: string,
    rating: number,
    notes: string | null,
  ): Promise<{ rating_count: number; rating_sum: number; previous: number | null } | undefined> {
    return this.transaction(async (repo) => {
      const db = repo.#db;
      const locked = await db
        .selectFrom('recipes')
        .select('id')
        .where('id', '=', recipeId)
        .forNoKeyUpdate()
        .executeTakeFirst();
      if (!locked) return undefined; // deleted since it was read
      const before = await db
        .selectFrom('recipe_ratings')
        .select('rating')
        .where('user_id', '=', userId)
        .where('recipe_id', '=', recipeId)
        .executeTakeFirst();
      await db
        .insertInto('recipe_ratings')
        .values({ user_id: userId, recipe_id: recipeId, rating, notes })
        .onConflict((oc) =>
          oc.columns(['user_id', 'recipe_id']).doUpdateSet({ rating, notes, updated_at: new Date() }),
        )
        .execute();
      const aggregate = await db
        .updateTable('recipes')
        .set({
          rating_count: sql<number>`(select count(*) from recipe_ratings where recipe_id = ${recipeId})`,
          rating_sum: sql<number>`(select coalesce(sum(rating), 0) from recipe_ratings where recipe_id = ${recipeId})`,
        })
        .where('id', '=', recipeId)
        .returning(['rating_count', 'rating_sum'])
        .executeTakeFirstOrThrow();
      return { ...aggregate, previous: before?.rating ?? null };
    });
  }

  /** A recipe deleted while it was being cooked is recorded like any deleted one: by title only. */
  async addHistory(entry: {
    userId: string;
    recipeId: string;
    title: string;
    servings: number;
    cookedAt: Date;
  }) {
    const insert = (recipeId: string | null) =>
      this.#db
        .insertInto('cooking_history')
        .values({
          user_id: entry.userId,
          recipe_id: recipeId,
          title: entry.title,
          servings: entry.servings,
          cooked_at: entry.cookedAt,
        })
        .execute();
    try {
      await insert(entry.recipeId);
    } catch (error) {
      if (!isForeignKeyViolation(error)) throw error;
      await insert(null);
    }
  }

  async history(
    userId: string,
    page: { limit: number; offset: number },
  ): Promise<{ rows: HistoryRow[]; total: number }> {
    const base = this.#db.selectFrom('cooking_history').where('user_id', '=', userId);
    const [rows, count] = await Promise.all([
      base
        .select(['recipe_id', 'title', 'servings', 'cooked_at'])
        .orderBy('cooked_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }
}

/** The filters of a search as the index applies them (cuisine already lower case). */
export interface PrivateSearchFilters {
  cuisine?: string | undefined;
  difficulty?: string | undefined;
  maxTime?: number | undefined;
  diets: readonly string[];
  mealType?: string | undefined;
}

/** A summary's columns (less the caller's favourite) and what the index filters and ranks on. */
type SearchDocumentRow = Omit<SummaryRow, 'is_favourite' | 'difficulty' | 'meal_types'> & {
  owner_id: string | null;
  is_public: boolean;
  difficulty: string;
  total_time: number;
  fits_text: string;
  meal_types_text: string;
  vector: string;
};

/** Joins a search document's tags in SQL (the unit separator, which no tag holds). */
const TAG_SEPARATOR = '\u001f';

function tagsOf(joined: string): string[] {
  return joined === '' ? [] : joined.split(TAG_SEPARATOR);
}

function searchDocumentOf(r: SearchDocumentRow): SearchDocument {
  return {
    id: r.id,
    title: r.title,
    ownerId: r.owner_id,
    isPublic: r.is_public,
    cuisine: r.cuisine,
    difficulty: r.difficulty,
    totalTime: r.total_time,
    fits: tagsOf(r.fits_text),
    mealTypes: tagsOf(r.meal_types_text),
    vector: r.vector,
    shown: {
      description: r.description,
      cuisine: r.cuisine,
      difficulty: r.difficulty,
      prepTime: r.prep_time,
      cookTime: r.cook_time,
      servings: r.servings,
      calories: r.calories,
      ratingCount: r.rating_count,
      ratingSum: r.rating_sum,
      imageUrl: r.image_url,
    },
  };
}

/** A search's filters as conditions, as the in-memory index applies them. */
function searchFilters(eb: RecipeEb, filters: PrivateSearchFilters): Expression<SqlBool>[] {
  const all: Expression<SqlBool>[] = [];
  if (filters.cuisine !== undefined) all.push(eb('r.cuisine', '=', filters.cuisine));
  if (filters.difficulty !== undefined) all.push(sql<SqlBool>`r.difficulty = ${filters.difficulty}`);
  if (filters.maxTime !== undefined) all.push(eb('r.total_time', '<=', filters.maxTime));
  if (filters.diets.length > 0) all.push(sql<SqlBool>`r.fits @> ${[...filters.diets]}::text[]`);
  if (filters.mealType !== undefined) {
    all.push(sql<SqlBool>`r.meal_types @> array[${filters.mealType}]::text[]`);
  }
  return all;
}

/** A term as tsquery input: the lexeme quoted (quotes doubled, backslashes escaped), `:*` for a prefix. */
function tsQueryLiteral(term: QueryTerm): string {
  const quoted = term.lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''");
  return `'${quoted}'${term.prefix ? ':*' : ''}`;
}

function narrowDraw(eb: RecipeEb, draw: PoolDraw): Expression<SqlBool> {
  const all: Expression<SqlBool>[] = [];
  if (draw.ownerId) all.push(eb('r.owner_id', '=', draw.ownerId));
  if (draw.cuisines?.length) all.push(eb('r.cuisine', 'in', [...draw.cuisines]));
  if (draw.ingredientIds?.length) {
    const ids = [...draw.ingredientIds];
    all.push(
      sql<SqlBool>`exists (select 1 from recipe_ingredients ri where ri.recipe_id = r.id and ri.ingredient_id = any(${ids}::int[]))`,
    );
  }
  return eb.and(all);
}

/** PostgreSQL 23503: a referenced row (here: the recipe) is gone. */
function isForeignKeyViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23503';
}
