import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/support/app.ts';
import { openDatabase } from '../../../platform/db/database.ts';
import { classifyFood } from './classify.ts';
import { importSrLegacy } from './importer.ts';

const REAL_DIR = path.resolve(import.meta.dirname, '../../../../../shared/data/ingredients');
const realPresent = existsSync(path.join(REAL_DIR, 'ABBREV.txt'));
if (!realPresent) console.warn(`USDA import of the real release skipped: ${REAL_DIR} is absent`);

const root = mkdtempSync(path.join(tmpdir(), 'usda-fixture-'));

/** One ABBREV.txt record in the release format: 53 fields, text in ~, numbers bare, empty = missing. */
function abbrevRow(
  ndb: string,
  short: string,
  kcal: string,
  protein = '1.5',
  fat = '2.5',
  carbs = '10.25',
  fiber = '1.1',
) {
  const fields = [`~${ndb}~`, `~${short}~`, '80.1', kcal, protein, fat, '0.9', carbs, fiber];
  while (fields.length < 53) fields.push('');
  return fields.join('^');
}
const foodDes = (ndb: string, group: string, long: string, manufacturer = '') =>
  `~${ndb}~^~${group}~^~${long}~^~${long.toUpperCase()}~^~~^~${manufacturer}~^~Y~^~~^0^~~^6.25^4.00^9.00^4.00`;

/** A small release: latin-1 and CRLF like the real files, ABBREV with blank lines between records. */
function writeFixture(dir: string, withWeights: boolean) {
  mkdirSync(dir, { recursive: true });
  const latin1 = (name: string, lines: string[], blankBetween = false) =>
    writeFileSync(
      path.join(dir, name),
      Buffer.from(lines.join(blankBetween ? '\r\n\r\n' : '\r\n') + '\r\n', 'latin1'),
    );
  latin1(
    'ABBREV.txt',
    [
      abbrevRow('11215', 'GARLIC,RAW', '149'),
      abbrevRow('90001', 'PEANUT BRITTLE,TEST', '486', '7.57', '19.05', '71.15', '2.5'),
      abbrevRow('90002', 'CHICKEN SAUSAGE,SMOKD,TEST', '213'),
      abbrevRow('90003', 'JALAPENO PEPPERS,RAW,TEST', '29', '0.91', '0.37', '6.5', '2.8'),
      abbrevRow('90004', 'BABYFOOD,TEST', '50'),
      abbrevRow('90005', 'ACME CRUNCH,TEST', '400'),
      abbrevRow('90006', 'GARLIC,OTHER NDB', '150'),
      abbrevRow('90007', 'MYSTERY FOOD,TEST', ''),
    ],
    true,
  );
  latin1('FOOD_DES.txt', [
    foodDes('11215', '1100', 'Garlic, raw'),
    foodDes('90001', '1900', 'Peanut brittle, test'),
    foodDes('90002', '0700', 'Chicken sausage, smoked, test'),
    foodDes('90003', '1100', 'Jalapeño peppers, raw, test'),
    foodDes('90004', '0300', 'Babyfood, test'),
    foodDes('90005', '1900', 'Acme crunch bar, test', 'Acme Foods'),
    foodDes('90006', '1100', 'Garlic'),
    foodDes('90007', '1100', 'Mystery food, test'),
  ]);
  latin1('FD_GROUP.txt', [
    '~0300~^~Baby Foods~',
    '~0700~^~Sausages and Luncheon Meats~',
    '~1100~^~Vegetables and Vegetable Products~',
    '~1900~^~Sweets~',
  ]);
  if (withWeights) {
    latin1('WEIGHT.txt', [
      '~90003~^1^1^~cup, sliced~^90^^',
      '~90003~^2^1^~pepper~^14^^',
      '~90003~^3^2^~medium~^28^^',
      '~90001~^1^1^~oz~^28.35^^',
      '~90001~^2^1^~bar~^42.5^^',
    ]);
  }
}

let ctx: TestApp;
beforeAll(async () => {
  writeFixture(path.join(root, 'full'), true);
  writeFixture(path.join(root, 'no-weights'), false);
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx.close();
  rmSync(root, { recursive: true, force: true });
});

describe('SR Legacy import through the ingredients service', () => {
  it('adds new foods with mapped category, facts and portion weights, skipping known and unsuitable ones', async () => {
    const report = await importSrLegacy(ctx.services.ingredients, path.join(root, 'full'));
    expect(report).toEqual({
      foodsRead: 8,
      candidates: 5, // baby food (group), Acme (branded) and the food without energy are left out
      withPortionWeights: true,
      skippedGroup: 1,
      skippedBranded: 1,
      skippedNoEnergy: 1,
      skippedNoDescription: 0,
      skippedExistingNdb: 1, // 11215 is the seed's garlic
      skippedExistingName: 1, // "Garlic" under another NDB number
      inserted: 3,
    });
    const jalapeno = await ctx.services.ingredients.resolveName('jalapeño peppers, raw, test');
    expect(jalapeno).toMatchObject({
      category: 'produce',
      defaultUnit: 'g',
      nutrition: { kcal: 29, protein: 0.91, carbs: 6.5, fat: 0.37, fiber: 2.8 },
      allergens: [],
      diet: [],
      density: 0.3804, // 90 g / 236.588 ml
      pieceGrams: 14, // 2 medium = 28 g
      usdaNdb: '90003',
      source: 'usda',
    });
    expect(jalapeno!.id).toBeGreaterThanOrEqual(100000);
    const brittle = await ctx.services.ingredients.resolveName('peanut brittle, test');
    expect(brittle!.allergens).toEqual(expect.arrayContaining(['nuts', 'peanuts']));
    expect(brittle!.measures).toEqual({ bar: 42.5 });
    expect(brittle!.category).toBe('pantry staples');
    const sausage = await ctx.services.ingredients.resolveName('chicken sausage, smoked, test');
    expect(sausage!.diet).toEqual(expect.arrayContaining(['meat', 'poultry', 'animal_product']));
    expect(sausage!.diet).not.toContain('pork');
    expect(sausage!.category).toBe('meat & fish');
    expect(await ctx.services.ingredients.resolveName('babyfood, test')).toBeUndefined();
  });

  it('adds nothing on a second run', async () => {
    const report = await importSrLegacy(ctx.services.ingredients, path.join(root, 'full'));
    expect(report.inserted).toBe(0);
    expect(report.skippedExistingNdb).toBe(4);
  });

  it('works without WEIGHT.txt (no densities) and names a missing required file', async () => {
    const report = await importSrLegacy(ctx.services.ingredients, path.join(root, 'no-weights'));
    expect(report.withPortionWeights).toBe(false);
    await expect(importSrLegacy(ctx.services.ingredients, path.join(root, 'nowhere'))).rejects.toThrow(
      /ABBREV\.txt/,
    );
  });
});

describe('food classification errs on the unsafe side', () => {
  it.each([
    ['1200', 'Nuts, almonds', ['nuts', 'tree_nuts'], []],
    ['1100', 'Eggplant, raw', [], []],
    ['0900', 'Oranges, blood, raw', [], []],
    ['1600', 'Peanut butter, smooth style', ['nuts', 'peanuts'], []],
    ['0100', 'Cheese, cheddar', ['dairy'], ['animal_product', 'dairy']],
    ['0100', 'Egg, whole, raw, fresh', ['eggs'], ['animal_product', 'egg']],
    ['1500', 'Crustaceans, shrimp, raw', ['shellfish'], ['animal_product', 'shellfish']],
    ['1500', 'Fish, cod, Atlantic, raw', ['fish'], ['animal_product', 'fish']],
    ['1900', 'Gelatin desserts, dry mix', [], ['animal_product', 'meat', 'pork']],
    ['2000', 'Oats', ['gluten'], ['gluten']],
    ['2000', 'Rice flour, white', [], []],
    ['1400', 'Alcoholic beverage, wine, table, red', [], ['alcohol']],
    ['1600', 'Beans, baked, canned, with pork', [], ['animal_product', 'meat', 'pork']],
    [
      '1200',
      'Nuts, coconut milk, raw (liquid expressed from grated meat and water)',
      ['nuts', 'tree_nuts'],
      [],
    ],
  ])('%s %s', (group, description, allergens, diet) => {
    expect(classifyFood(group, description)).toEqual({ allergens, diet });
  });
});

describe('npm run import:usda', () => {
  it('imports into the embedded database under DATA_DIR and prints the counts', async () => {
    const dataDir = path.join(root, 'data');
    const run = (dir: string) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['src/cli/import-usda.ts', dir], {
          cwd: path.resolve(import.meta.dirname, '../../../..'),
          env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'development' },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
    const first = await run(path.join(root, 'full'));
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/imported:\s+3\n/);
    expect(first.stdout).toMatch(/skipped, NDB already present:\s+1\n/);
    const database = await openDatabase({ dataDir: path.join(dataDir, 'pgdata') });
    try {
      const { rows } = await sql<{ source: string; n: number }>`
        select source, count(*)::int as n from ingredients group by source order by source`.execute(
        database.db,
      );
      expect(rows).toEqual([
        { source: 'seed', n: expect.any(Number) },
        { source: 'usda', n: 3 },
      ]);
    } finally {
      await database.close();
    }
    const usage = await run('');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/usage/);
  }, 180_000); // a real process opening a fresh embedded database: slow on a busy machine
});

describe('the real SR Legacy release', () => {
  it.skipIf(!realPresent)(
    'imports thousands of foods once, without duplicating seed ingredients',
    async () => {
      const report = await importSrLegacy(ctx.services.ingredients, REAL_DIR);
      console.warn(`USDA import of ${REAL_DIR}: ${JSON.stringify(report)}`);
      expect(report.foodsRead).toBe(8790);
      expect(report.withPortionWeights).toBe(true);
      expect(report.skippedExistingNdb).toBeGreaterThan(600); // the seed's usda_ndb numbers
      expect(report.inserted).toBeGreaterThan(5000);
      const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from (select lower(name) from ingredients group by 1 having count(*) > 1) d`.execute(
        ctx.database.db,
      );
      expect(rows[0]!.n).toBe(0);
      const tilsit = await ctx.services.ingredients.resolveName('cheese, tilsit');
      expect(tilsit).toMatchObject({
        category: 'dairy & eggs',
        allergens: ['dairy'],
        usdaNdb: '01041',
        source: 'usda',
      });
      const again = await importSrLegacy(ctx.services.ingredients, REAL_DIR);
      expect(again.inserted).toBe(0);
    },
    120_000,
  );
});
