import type { BenchContext } from '../context.ts';

/**
 * Stores and live promotions at scale, inserted with one INSERT ... SELECT generate_series each.
 * Promotion products are built from real ingredient names (with brand-like words around them, as
 * flyers print them), so that the trigram matching of shopping-list items has real work to do.
 */
const PREFIXES = ['Fresh', 'Organic', 'Classic', 'Premium', 'Value', 'Farm', 'Select', 'Daily'];
const SUFFIXES = ['pack', 'family size', 'loose', 'value pack', 'bio', 'selection', 'tray', 'bag'];
const UNITS = ['500 g', '1 kg', '250 g', '1 l', '6 pieces', '400 g', 'per kg', '750 ml'];

export async function seedStores(
  ctx: BenchContext,
  options: { stores: number; promotions: number },
): Promise<{ storeIds: string[] }> {
  await ctx.built.services.ingredients.seedIngredients();
  const names = (await ctx.built.services.ingredients.all()).map((i) => i.name);
  await ctx.rawQuery(
    `insert into stores (name, logo_url, promotions_changed_at)
     select 'Bench Store ' || n, 'https://example.test/logo/' || n || '.png', now()
     from generate_series(1, $1::int) as n`,
    [options.stores],
  );
  const stores = (await ctx.rawQuery(
    `select id from stores where name like 'Bench Store %' order by name`,
    [],
  )) as {
    id: string;
  }[];
  const storeIds = stores.map((s) => s.id);
  await ctx.rawQuery(
    `insert into promotions (store_id, product, brand, original_price, discounted_price, unit, valid_until, page, confidence, status)
     select ($1::uuid[])[1 + n % cardinality($1::uuid[])],
            ($2::text[])[1 + (n / 7) % cardinality($2::text[])] || ' ' || ($3::text[])[1 + n % cardinality($3::text[])]
              || ' ' || ($4::text[])[1 + (n / 3) % cardinality($4::text[])],
            'Brand ' || (n % 97),
            round((1.5 + (n % 50) * 0.37)::numeric, 2),
            round((1.0 + (n % 50) * 0.29)::numeric, 2),
            ($5::text[])[1 + n % cardinality($5::text[])],
            current_date + 7 + (n % 14),
            1 + n % 20,
            0.9,
            'live'
     from generate_series(1, $6::int) as n`,
    [storeIds, PREFIXES, names, SUFFIXES, UNITS, options.promotions],
  );
  await ctx.rawQuery('vacuum analyze promotions', []);
  await ctx.settle();
  return { storeIds };
}
