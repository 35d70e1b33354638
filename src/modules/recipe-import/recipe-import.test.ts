import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { seedIngredientsForTest } from '../../../test/support/ingredients.ts';
import { parseIngredientLine } from '../ingredients/line-parser.ts';
import { NameIndex } from '../ingredients/names.ts';
import { INGREDIENTS } from '../ingredients/seed/ingredients.ts';
import { seedToInfo } from '../ingredients/service.ts';
import { importRecipes, type ImportDeps } from './importer.ts';
import {
  parseDurationText,
  parseHtmlRecipes,
  parseIsoDuration,
  parseJsonLdRecipes,
  parseMarkdownRecipe,
} from './sources.ts';

const SHARED = path.resolve(import.meta.dirname, '../../../../shared/data/recipes/content');
const sharedPresent = existsSync(SHARED);
if (!sharedPresent) console.warn(`recipe import of the shared catalog skipped: ${SHARED} is absent`);

const names = new NameIndex(INGREDIENTS.map(seedToInfo));
const parseOnly: ImportDeps = { parseLine: async (text) => parseIngredientLine(text, names) };

const MARKDOWN = `---
title: "Garlic Spaghetti"
date: 2021-03-21
tags: ['italian', 'pasta', 'dinner']
author: someone
---

![Spaghetti](/pix/spaghetti.webp)

Pasta with garlic and [olive oil](/olive-oil), quick and cheap.

- ⏲️ Prep time: 10 min
- 🍳 Cook time: 1 hour 5 min
- 🍽️ Servings: 4-6

## Ingredients

### Pasta
- 1 pound (500g) spaghetti
- 1/2 cup extra virgin olive oil
### Sauce
- 5-6 cloves of garlic, minced
- Salt to taste
- 1 cheesecloth

## Directions

1. Cook the [pasta](/pasta).
2. Warm the oil and garlic
   until golden.
3. Toss everything together.
`;

const JSON_LD = JSON.stringify({
  '@context': 'https://schema.org',
  '@graph': [
    { '@type': 'WebPage', name: 'a page' },
    {
      '@type': ['Recipe'],
      name: 'Buttered Eggs',
      description: 'Soft eggs.',
      recipeCuisine: 'French',
      recipeCategory: 'Breakfast',
      prepTime: 'PT5M',
      cookTime: 'PT1H30M',
      recipeYield: ['2 servings'],
      recipeIngredient: ['3 large eggs', '1 tbsp butter', 'a pinch of salt'],
      recipeInstructions: [
        {
          '@type': 'HowToSection',
          name: 'Cook',
          itemListElement: [{ '@type': 'HowToStep', text: 'Melt the butter.' }],
        },
        { '@type': 'HowToStep', text: 'Stir in the <b>eggs</b>.' },
      ],
    },
  ],
});

const HTML = `<html><head><title>x</title>
<script type="application/ld+json">{ not json }</script>
<script type="application/ld+json">${JSON.stringify({
  '@type': 'Recipe',
  name: 'Onion Soup',
  recipeIngredient: ['2 onions, sliced', '1 l vegetable stock', '200 g scamorza cheese'],
  recipeInstructions: '1. Cook the onions.\n2. Add the stock.',
})}</script></head><body></body></html>`;

const root = mkdtempSync(path.join(tmpdir(), 'recipe-fixture-'));
beforeAll(() => {
  mkdirSync(path.join(root, 'box', 'nested'), { recursive: true });
  writeFileSync(path.join(root, 'box', 'garlic-spaghetti.md'), MARKDOWN);
  writeFileSync(path.join(root, 'box', 'nested', 'eggs.json'), JSON_LD);
  writeFileSync(path.join(root, 'box', 'soup.html'), HTML);
  writeFileSync(path.join(root, 'box', 'notes.txt'), 'not a recipe file');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('recipe sources', () => {
  it('reads Markdown front matter, times, servings, grouped ingredient lines and multi-line steps', () => {
    const r = parseMarkdownRecipe(MARKDOWN, 'garlic-spaghetti');
    expect(r).toMatchObject({
      slug: 'garlic-spaghetti',
      title: 'Garlic Spaghetti',
      description: 'Pasta with garlic and olive oil, quick and cheap.',
      tags: ['italian', 'pasta', 'dinner'],
      prepTime: 10,
      cookTime: 65,
      servings: 4,
    });
    expect(r.ingredientLines).toHaveLength(5);
    expect(r.steps).toEqual([
      'Cook the pasta.',
      'Warm the oil and garlic until golden.',
      'Toss everything together.',
    ]);
  });

  it('reads schema.org Recipe JSON-LD (@graph, type arrays, sections, ISO durations) and HTML script blocks', () => {
    const [eggs] = parseJsonLdRecipes(JSON_LD, 'eggs');
    expect(eggs).toMatchObject({
      slug: 'buttered-eggs',
      title: 'Buttered Eggs',
      cuisine: 'french',
      prepTime: 5,
      cookTime: 90,
      servings: 2,
      tags: ['breakfast'],
      steps: ['Melt the butter.', 'Stir in the eggs.'],
    });
    const [soup] = parseHtmlRecipes(HTML, 'soup');
    expect(soup!.title).toBe('Onion Soup');
    expect(soup!.steps).toEqual(['Cook the onions.', 'Add the stock.']);
  });

  it.each([
    ['25 min', 25],
    ['4 hours', 240],
    ['1 hour 30 min', 90],
    ['1h30', 90],
    ['1.5 hours', 90],
    ['10 minutes', 10],
    ['45', 45],
    ['overnight', undefined],
  ])('duration %s → %s', (text, minutes) => {
    expect(parseDurationText(text)).toBe(minutes);
  });

  it('parses ISO 8601 durations', () => {
    expect(parseIsoDuration('PT1H30M')).toBe(90);
    expect(parseIsoDuration('P0DT45M')).toBe(45);
    expect(parseIsoDuration(undefined)).toBeUndefined();
  });
});

describe('import through the recipes service', () => {
  let ctx: TestApp;
  beforeAll(async () => {
    ctx = await startTestApp();
    await seedIngredientsForTest(ctx);
  });
  afterAll(() => ctx.close());

  it('writes matched recipes with reference names, reports unmatched lines, and skips allergen-risky ones', async () => {
    const ids: string[] = [];
    const deps: ImportDeps = {
      parseLine: (text) => ctx.services.ingredients.parseLine(text),
      upsert: async (seed) => {
        const id = await ctx.services.recipes.upsertCatalogRecipe(seed);
        ids.push(id);
        return id;
      },
    };
    const report = await importRecipes(path.join(root, 'box'), deps);
    const byTitle = Object.fromEntries(report.recipes.map((r) => [r.title, r]));
    expect(Object.keys(byTitle).sort()).toEqual(['Buttered Eggs', 'Garlic Spaghetti', 'Onion Soup']);
    expect(byTitle['Garlic Spaghetti']).toMatchObject({
      status: 'imported',
      linesWithQuantity: 4,
      matchedWithQuantity: 3,
      unmatched: ['- 1 cheesecloth'],
    });
    expect(byTitle['Onion Soup']).toMatchObject({ status: 'skipped', unmatched: ['200 g scamorza cheese'] });
    expect(byTitle['Onion Soup']!.reason).toMatch(/allergens/);
    expect(report).toMatchObject({ imported: 2, skipped: 1, failed: 0 });

    const spaghetti = await ctx.services.recipes.getVisible(ids[0]!, undefined);
    expect(spaghetti).toMatchObject({
      title: 'Garlic Spaghetti',
      cuisine: 'italian',
      prepTime: 10,
      cookTime: 65,
      servings: 4,
      mealTypes: ['dinner'],
    });
    expect(spaghetti!.ingredients.map((l) => [l.name, l.quantity, l.unit])).toEqual([
      ['spaghetti', 1, 'lb'],
      ['extra virgin olive oil', 0.5, 'cup'],
      ['garlic', 5, 'clove'],
      ['salt', 1, 'pinch'], // "to taste": a nominal pinch
    ]);
    const eggs = await ctx.services.recipes.getVisible(ids[1]!, undefined);
    expect(eggs!.allergens).toEqual(expect.arrayContaining(['eggs', 'dairy']));
    expect(eggs).toMatchObject({ cuisine: 'french', mealTypes: ['breakfast'], servings: 2 });

    // Upsert by slug: a second run replaces, never duplicates.
    ids.length = 0;
    await importRecipes(path.join(root, 'box'), deps);
    expect(await ctx.services.recipes.getVisible(ids[0]!, undefined)).toBeDefined();
    const search = await ctx.services.recipes.search(
      { q: 'Garlic Spaghetti', limit: 10, offset: 0 },
      undefined,
    );
    expect(search.items.filter((i) => i.title === 'Garlic Spaghetti')).toHaveLength(1);
  });
});

describe('npm run import:recipes', () => {
  it('parses and reports per file and in total with --dry-run', async () => {
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        ['src/cli/import-recipes.ts', path.join(root, 'box'), '--dry-run'],
        {
          cwd: path.resolve(import.meta.dirname, '../../..'),
          env: {
            ...process.env,
            DATA_DIR: path.join(root, 'data'),
            DATABASE_URL: '',
            NODE_ENV: 'development',
          },
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /garlic-spaghetti\.md: recipe read\n {2}Garlic Spaghetti \[\w+\]: parsed; 3\/4 lines with a quantity matched \(75\.0%\)/,
    );
    expect(result.stdout).toMatch(/unmatched: - 1 cheesecloth/);
    expect(result.stdout).toMatch(
      /total: 3 recipes, 0 imported, 1 skipped, 0 failed; 8\/10 lines with a quantity matched \(80\.0%\)/,
    );
  }, 180_000); // a real process opening a fresh embedded database: slow on a busy machine
});

describe('the shared public-domain recipe folder', () => {
  it.skipIf(!sharedPresent)(
    'matches at least 85% of the ingredient lines that carry a quantity',
    async () => {
      const report = await importRecipes(SHARED, parseOnly);
      const rate = report.matchedWithQuantity / report.linesWithQuantity;
      console.warn(
        `recipe import of ${SHARED}: ${report.recipes.length} recipes; ${report.matchedWithQuantity}/${report.linesWithQuantity} ` +
          `lines with a quantity matched (${(rate * 100).toFixed(1)}%)`,
      );
      expect(report.recipes.length).toBeGreaterThanOrEqual(400);
      expect(report.linesWithQuantity).toBeGreaterThan(2000);
      expect(rate).toBeGreaterThanOrEqual(0.85);
    },
  );
});

const WEB_PAGES = path.resolve(import.meta.dirname, '../../../../shared/data/recipes-web/pages');

describe('recipe pages from 120 sites in many languages (../shared/data/recipes-web)', () => {
  it.skipIf(!existsSync(WEB_PAGES))(
    'match at least 90% of the lines with a quantity, and 85% in each language with 20 or more',
    async () => {
      const report = await importRecipes(WEB_PAGES, parseOnly);
      const rate = (m: number, n: number) => (n === 0 ? 1 : m / n);
      expect(rate(report.matchedWithQuantity, report.linesWithQuantity)).toBeGreaterThanOrEqual(0.9);
      const languages = [...report.languages.entries()].filter(([, t]) => t.linesWithQuantity >= 20);
      expect(languages.map(([l]) => l)).toEqual(expect.arrayContaining(['en', 'fr', 'de']));
      for (const [language, t] of languages)
        expect(rate(t.matchedWithQuantity, t.linesWithQuantity), language).toBeGreaterThanOrEqual(0.85);
      const structured = report.pages.filter((p) => p.status !== 'no-structured-data');
      const read = structured.filter((p) => p.status === 'read');
      expect(read.length / structured.length).toBeGreaterThanOrEqual(0.97);
    },
  );
});
