import { sql } from 'kysely';
import type { IngredientInfo } from '../../src/modules/ingredients/contract.ts';
import { compose, type ResolvedLine } from '../../src/modules/recipes/composition.ts';
import type { BenchContext } from '../context.ts';

/**
 * Synthetic catalog recipes at scale. The service's own upsert (one recipe, its lines, its derived
 * columns) is far too slow for 100,000 recipes, so the derivation is done once per *template* in
 * JavaScript with the recipes module's own `compose` (nutrition per serving, allergens, fits and
 * ingredient names exactly as the service computes them), and PostgreSQL multiplies the templates
 * with generate_series: one INSERT ... SELECT per batch fills `recipes` (every column the search,
 * the filters and the detail read; the tsvector is a generated column) and, through a data-modifying
 * CTE, the `recipe_ingredients` rows with real ingredient ids.
 *
 * Vocabulary, so that benchmarks can pick terms of known selectivity:
 *   - SELECTIVE_TERM appears in the description of one recipe in 1,000;
 *   - COMMON_TERM is one of 12 dish words in the title: one recipe in 12.
 */
export const SELECTIVE_TERM = 'zanzibar';
export const COMMON_TERM = 'soup';
export const BENCH_SLUG_PREFIX = 'bench-';

const ADJECTIVES = [
  'rustic',
  'spicy',
  'smoky',
  'creamy',
  'zesty',
  'hearty',
  'crispy',
  'tangy',
  'golden',
  'herby',
  'sticky',
  'fragrant',
  'silky',
  'charred',
  'simple',
  'sunday',
  'weeknight',
];
const DISHES = [
  'soup',
  'stew',
  'salad',
  'curry',
  'pasta',
  'roast',
  'pie',
  'bake',
  'skillet',
  'tacos',
  'bowl',
  'gratin',
];
export const BENCH_CUISINES = [
  'italian',
  'french',
  'indian',
  'mexican',
  'japanese',
  'chinese',
  'thai',
  'greek',
  'spanish',
  'moroccan',
  'korean',
  'vietnamese',
  'american',
  'british',
  'german',
  'turkish',
  'lebanese',
  'ethiopian',
  'peruvian',
  'swedish',
];
const MEAL_TYPE_SETS = [['dinner'], ['lunch', 'dinner'], ['breakfast'], ['lunch'], ['snack'], ['dinner']];
const TEMPLATE_COUNT = 997; // prime, so that templates and the other cycles do not line up
const BATCH = 5000;

interface Template {
  i: number;
  main: string;
  servings: number;
  calories: number;
  protein: number;
  carbs: number;
  fat: number;
  fiber: number;
  allergens: string[];
  fits: string[];
  names: string;
  ids: number[];
  qty: number[];
  units: string[];
}

/** Deterministic pseudo-random numbers (mulberry32), so that every run seeds the same catalog. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function lineFor(info: IngredientInfo, next: () => number): ResolvedLine {
  if (info.defaultUnit === 'piece') return { info, quantity: 1 + Math.floor(next() * 3), unit: 'piece' };
  if (info.defaultUnit === 'ml') return { info, quantity: 15 * (1 + Math.floor(next() * 20)), unit: 'ml' };
  return { info, quantity: 10 * (1 + Math.floor(next() * 40)), unit: 'g' };
}

function templates(ingredients: readonly IngredientInfo[]): Template[] {
  const next = random(20261122);
  const out: Template[] = [];
  for (let i = 0; i < TEMPLATE_COUNT; i++) {
    const count = 5 + Math.floor(next() * 8);
    const chosen = new Map<number, IngredientInfo>();
    while (chosen.size < count) {
      const info = ingredients[Math.floor(next() * ingredients.length)]!;
      chosen.set(info.id, info);
    }
    const lines = [...chosen.values()].map((info) => lineFor(info, next));
    const servings = 2 + Math.floor(next() * 5);
    const c = compose(lines, servings);
    out.push({
      i,
      main: lines[0]!.info.name,
      servings,
      ...c.nutrition,
      allergens: c.allergens,
      fits: c.fits,
      names: c.ingredientNames,
      ids: lines.map((l) => l.info.id),
      qty: lines.map((l) => l.quantity),
      units: lines.map((l) => l.unit),
    });
  }
  return out;
}

/**
 * Inserts `count` synthetic catalog recipes (slugs bench-1 .. bench-count) unless they are there
 * already; answers how many recipes and ingredient lines exist afterwards and how long it took.
 */
export async function seedBenchRecipes(
  ctx: BenchContext,
  count: number,
): Promise<{ recipes: number; lines: number; seconds: number }> {
  const started = performance.now();
  const { ingredients } = ctx.built.services;
  await ingredients.seedIngredients();
  const all = (await ingredients.all()).filter((i) => i.nutrition.kcal >= 0);
  const json = JSON.stringify(templates(all));
  const db = ctx.database.db;
  const present = await sql<{ n: number }>`
    select count(*)::int as n from recipes where slug like ${BENCH_SLUG_PREFIX + '%'}`.execute(db);
  for (let from = (present.rows[0]?.n ?? 0) + 1; from <= count; from += BATCH) {
    const to = Math.min(count, from + BATCH - 1);
    await sql`
      with t as (
        select * from jsonb_to_recordset(${json}::jsonb) as t(
          i int, main text, servings int, calories float8, protein float8, carbs float8, fat float8,
          fiber float8, allergens text[], fits text[], names text, ids int[], qty float8[], units text[])
      ),
      g as (
        select n, t.* from generate_series(${from}::int, ${to}::int) as n join t on t.i = n % ${TEMPLATE_COUNT}
      ),
      inserted as (
        insert into recipes (slug, owner_id, title, description, cuisine, difficulty, prep_time, cook_time,
          servings, meal_types, is_public, steps, calories, protein, carbs, fat, fiber, allergens, fits,
          ingredient_names)
        select
          ${BENCH_SLUG_PREFIX} || n,
          null,
          initcap((${ADJECTIVES}::text[])[1 + n % ${ADJECTIVES.length}] || ' ' || main || ' '
            || (${DISHES}::text[])[1 + (n / ${ADJECTIVES.length}) % ${DISHES.length}]) || ' #' || n,
          'A ' || (array['quick', 'slow', 'family', 'party'])[1 + n % 4] || ' dish with ' || main
            || case when n % 1000 = 7 then ${' as cooked in ' + SELECTIVE_TERM} else '' end || '.',
          (${BENCH_CUISINES}::text[])[1 + n % ${BENCH_CUISINES.length}],
          (array['easy', 'medium', 'hard'])[1 + n % 3],
          5 + n % 31,
          n % 97,
          servings,
          array(select jsonb_array_elements_text(${JSON.stringify(MEAL_TYPE_SETS)}::jsonb -> (n % ${MEAL_TYPE_SETS.length})::int)),
          true,
          array['Prepare the ingredients.', 'Cook the ' || main || '.', 'Combine everything.', 'Serve.'],
          calories, protein, carbs, fat, fiber, allergens, fits, names
        from g
        returning id, slug
      )
      insert into recipe_ingredients (recipe_id, position, ingredient_id, quantity, unit)
      select inserted.id, l.position, l.ingredient_id, l.quantity, l.unit
      from inserted
      join g on inserted.slug = ${BENCH_SLUG_PREFIX} || g.n
      cross join lateral unnest(g.ids, g.qty, g.units) with ordinality as l(ingredient_id, quantity, unit, position)
    `.execute(db);
  }
  // VACUUM, not only ANALYZE: a bulk insert leaves up to 4 MB of new entries in the GIN indexes'
  // pending lists, which every full-text search would scan linearly until autovacuum merges them.
  await sql`vacuum analyze recipes`.execute(db);
  await sql`vacuum analyze recipe_ingredients`.execute(db);
  const totals = await sql<{ recipes: number; lines: number }>`
    select (select count(*)::int from recipes) as recipes,
           (select count(*)::int from recipe_ingredients) as lines`.execute(db);
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  await ctx.settle();
  return { ...totals.rows[0]!, seconds };
}

const PRIVATE_SLUG_PREFIX = 'bench-private-';

/**
 * `users` accounts (no password anyone can use) and `count` private recipes spread evenly over
 * them, titled and described from the same vocabulary as the catalog (so SELECTIVE_TERM and
 * COMMON_TERM keep their selectivity among private recipes too). Without ingredient lines: search
 * reads none. Idempotent, like seedBenchRecipes.
 */
export async function seedPrivateRecipes(
  ctx: Pick<BenchContext, 'database' | 'settle'>,
  users: number,
  count: number,
): Promise<{ users: number; recipes: number; seconds: number }> {
  const started = performance.now();
  const db = ctx.database.db;
  for (let from = 1; from <= users; from += BATCH * 4) {
    const to = Math.min(users, from + BATCH * 4 - 1);
    await sql`
      insert into users (email, password_hash, name)
      select 'bench-user-' || n || '@bench.test', '!', 'Bench cook ' || n from generate_series(${from}::int, ${to}::int) n
      on conflict (email) do nothing`.execute(db);
  }
  // Owner number k (1..users) by id, kept in a table of the bench database for the batches below.
  await sql`create table if not exists bench_owners (k int primary key, id uuid not null)`.execute(db);
  await sql`
    insert into bench_owners (k, id)
    select row_number() over (order by id), id from users where email like 'bench-user-%'
    on conflict (k) do nothing`.execute(db);
  const present = await sql<{ n: number }>`
    select count(*)::int as n from recipes where slug like ${PRIVATE_SLUG_PREFIX + '%'}`.execute(db);
  for (let from = (present.rows[0]?.n ?? 0) + 1; from <= count; from += BATCH) {
    const to = Math.min(count, from + BATCH - 1);
    await sql`
      insert into recipes (slug, owner_id, title, description, cuisine, difficulty, prep_time, cook_time,
        servings, meal_types, is_public, steps, calories, protein, carbs, fat, fiber, allergens, fits,
        ingredient_names)
      select
        ${PRIVATE_SLUG_PREFIX} || n,
        o.id,
        initcap((${ADJECTIVES}::text[])[1 + (n * 7) % ${ADJECTIVES.length}] || ' '
          || (${DISHES}::text[])[1 + (n / ${ADJECTIVES.length}) % ${DISHES.length}]) || ' of mine #' || n,
        'My ' || (array['quick', 'slow', 'family', 'party'])[1 + n % 4] || ' version'
          || case when n % 1000 = 7 then ${' as cooked in ' + SELECTIVE_TERM} else '' end || '.',
        (${BENCH_CUISINES}::text[])[1 + n % ${BENCH_CUISINES.length}],
        (array['easy', 'medium', 'hard'])[1 + n % 3],
        5 + n % 31, n % 97, 2 + n % 4,
        array(select jsonb_array_elements_text(${JSON.stringify(MEAL_TYPE_SETS)}::jsonb -> (n % ${MEAL_TYPE_SETS.length})::int)),
        false,
        array['Cook it.', 'Serve.'],
        400 + n % 400, 20, 50, 15, 5, '{}', array['vegetarian', 'dairy_free'], ''
      from generate_series(${from}::int, ${to}::int) as n
      join bench_owners o on o.k = 1 + n % ${users}`.execute(db);
  }
  await sql`vacuum analyze recipes`.execute(db);
  await sql`vacuum analyze users`.execute(db);
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  await ctx.settle();
  return { users, recipes: count, seconds };
}
