import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHtmlRecipes, parseMarkdownRecipe } from './sources.ts';

const page = (head: string, body = '') =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
const ldJson = (doc: unknown, type = 'application/ld+json') =>
  `<script type="${type}">${typeof doc === 'string' ? doc : JSON.stringify(doc)}</script>`;

const RECIPE = {
  '@type': 'Recipe',
  name: 'Tomato Soup',
  recipeIngredient: ['1 kg tomatoes', '1 onion'],
  recipeInstructions: [{ '@type': 'HowToStep', text: 'Cook the tomatoes.' }],
};

describe('schema.org Recipe in JSON-LD', () => {
  it('reads a plain object, an array, an @graph and @type as an array', () => {
    for (const doc of [
      { '@context': 'https://schema.org', ...RECIPE },
      [{ '@type': 'WebSite', name: 'x' }, RECIPE],
      { '@context': 'https://schema.org', '@graph': [{ '@type': 'WebPage' }, RECIPE] },
      { ...RECIPE, '@type': ['Recipe', 'NewsArticle'] },
    ]) {
      const [r] = parseHtmlRecipes(page(ldJson(doc)), 'f');
      expect(r).toMatchObject({
        title: 'Tomato Soup',
        ingredientLines: ['1 kg tomatoes', '1 onion'],
        form: 'json-ld',
      });
    }
  });

  it('finds the recipe in any of several scripts, skipping broken ones, and keeps one recipe per name', () => {
    const stub = { '@type': 'Recipe', name: 'Tomato Soup', image: 'https://img.example/soup.jpg' };
    const html = page(
      ldJson({ '@type': 'Organization', name: 'Site' }) +
        ldJson('{ not json') +
        ldJson(stub) +
        ldJson(RECIPE),
    );
    const recipes = parseHtmlRecipes(html, 'f');
    expect(recipes).toHaveLength(1);
    expect(recipes[0]).toMatchObject({
      steps: ['Cook the tomatoes.'],
      imageUrl: 'https://img.example/soup.jpg',
    });
  });

  it('reads scripts with an unquoted type, CDATA wrappers and raw line breaks inside strings', () => {
    const broken = `//<![CDATA[\n{"@type":"Recipe","name":"Tomato\tSoup","recipeIngredient":["1 kg tomatoes\n"],"recipeInstructions":"Cook\nthe tomatoes."}\n//]]>`;
    const html = `<html><head><script type=application/ld+json>${broken}</script></head></html>`;
    const [r] = parseHtmlRecipes(html, 'f');
    expect(r).toMatchObject({ title: 'Tomato Soup', ingredientLines: ['1 kg tomatoes'] });
    expect(r!.steps).toEqual(['Cook', 'the tomatoes.']);
  });

  it('decodes HTML entities, also when a site encoded them twice', () => {
    const doc = {
      ...RECIPE,
      name: 'Mom&#39;s &amp;amp; Dad&#8217;s Soup',
      description: 'Caf&eacute; &lt;b&gt;style&lt;/b&gt;',
    };
    const [r] = parseHtmlRecipes(page(ldJson(doc)), 'f');
    expect(r!.title).toBe('Mom\u0027s & Dad\u2019s Soup');
    expect(r!.description).toBe('Café style');
  });

  it('reads HowToSection steps, plain-string and HTML instructions', () => {
    const sections = {
      ...RECIPE,
      recipeInstructions: [
        {
          '@type': 'HowToSection',
          name: 'Soup',
          itemListElement: [
            { '@type': 'HowToStep', text: 'Chop.' },
            { '@type': 'HowToStep', text: 'Boil.' },
          ],
        },
        {
          '@type': 'HowToSection',
          name: 'To serve',
          itemListElement: [{ '@type': 'HowToStep', name: 'Serve hot.' }],
        },
      ],
    };
    expect(parseHtmlRecipes(page(ldJson(sections)), 'f')[0]!.steps).toEqual(['Chop.', 'Boil.', 'Serve hot.']);
    const html = { ...RECIPE, recipeInstructions: '<ol><li>Chop the onion.</li><li>Boil it.</li></ol>' };
    expect(parseHtmlRecipes(page(ldJson(html)), 'f')[0]!.steps).toEqual(['Chop the onion.', 'Boil it.']);
    const numbered = { ...RECIPE, recipeInstructions: '1. Chop the onion. 2. Boil it.' };
    expect(parseHtmlRecipes(page(ldJson(numbered)), 'f')[0]!.steps).toEqual(['Chop the onion.', 'Boil it.']);
  });

  it('reads ISO 8601 durations, recipeYield as number, string or array, nutrition and the image', () => {
    const cases: [unknown, number | undefined][] = [
      [4, 4],
      ['Serves 6-8', 6],
      [['2', '2 servings'], 2],
      ['a crowd', undefined],
    ];
    for (const [recipeYield, servings] of cases) {
      const doc = {
        ...RECIPE,
        recipeYield,
        prepTime: 'PT15M',
        totalTime: 'PT1H10M',
        image: [{ '@type': 'ImageObject', url: 'https://img.example/a.jpg' }],
        nutrition: {
          '@type': 'NutritionInformation',
          calories: '320 kcal',
          proteinContent: '12,5 g',
          fatContent: '9 g',
        },
        RecipeCuisine: 'Italian',
      };
      const [r] = parseHtmlRecipes(page(ldJson(doc)), 'f');
      expect(r).toMatchObject({
        servings,
        prepTime: 15,
        cookTime: 55,
        imageUrl: 'https://img.example/a.jpg',
        cuisine: 'italian',
      });
      expect(r!.nutrition).toEqual({ kcal: 320, protein: 12.5, fat: 9 });
    }
  });

  it('reads JSON-LD that a Next.js page streams inside script strings', () => {
    const jsonLd = JSON.stringify({ '@context': 'https://schema.org/', ...RECIPE }, null, 2);
    const chunk = JSON.stringify([1, `19:T${jsonLd.length.toString(16)},${jsonLd}`]);
    const html = page('', `<script>self.__next_f.push(${chunk})</script>`);
    expect(parseHtmlRecipes(html, 'f')[0]).toMatchObject({ title: 'Tomato Soup', form: 'json-ld' });
  });
});

describe('microdata and microformats', () => {
  it('reads an itemscope Recipe with meta content, time datetime, nested HowToStep scopes and an image', () => {
    const html = page(
      '',
      `<div itemscope itemtype="https://schema.org/Recipe">
        <h1 itemprop="name">Pea &amp; Mint Soup</h1><img itemprop="image" src="https://img.example/p.jpg">
        <meta itemprop="prepTime" content="PT10M"><time itemprop="cookTime" datetime="PT20M">20 min</time>
        <span itemprop="recipeYield">4 servings</span>
        <ul><li itemprop="recipeIngredient">500 g peas</li><li itemprop="recipeIngredient">1 onion</li></ul>
        <div itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">Someone</span></div>
        <ol><li itemprop="recipeInstructions" itemscope itemtype="https://schema.org/HowToStep"><span itemprop="text">Boil the peas.</span></li></ol>
      </div>`,
    );
    const [r] = parseHtmlRecipes(html, 'f');
    expect(r).toMatchObject({
      title: 'Pea & Mint Soup',
      form: 'microdata',
      prepTime: 10,
      cookTime: 20,
      servings: 4,
      imageUrl: 'https://img.example/p.jpg',
      ingredientLines: ['500 g peas', '1 onion'],
      steps: ['Boil the peas.'],
    });
  });

  it('reads recipe properties written without their Recipe scope, named by the page title', () => {
    const html = page(
      '<meta property="og:title" content="Tagliatelles carbonara">',
      '<ul><li itemprop="ingredients">250 g de tagliatelles</li><li itemprop="ingredients">2 oeufs</li></ul><h2>Préparation</h2><p>Cuire les pâtes dans l’eau salée.</p>',
    );
    expect(parseHtmlRecipes(html, 'f')[0]).toMatchObject({
      title: 'Tagliatelles carbonara',
      ingredientLines: ['250 g de tagliatelles', '2 oeufs'],
      steps: ['Cuire les pâtes dans l’eau salée.'],
    });
  });

  it('reads the hRecipe microformat', () => {
    const html = page(
      '',
      `<div class="hrecipe"><h1 class="fn">Lemonade</h1><span class="yield">6</span>
        <ul><li class="ingredient">4 lemons</li><li class="ingredient">1 l water</li></ul>
        <div class="instructions"><ol><li>Squeeze the lemons.</li><li>Add the water.</li></ol></div></div>`,
    );
    expect(parseHtmlRecipes(html, 'f')[0]).toMatchObject({
      title: 'Lemonade',
      form: 'microformat',
      servings: 6,
      ingredientLines: ['4 lemons', '1 l water'],
      steps: ['Squeeze the lemons.', 'Add the water.'],
    });
  });

  it('finds nothing on a page without structured data', () => {
    expect(
      parseHtmlRecipes(page('<title>Soup</title>', '<ul class="ingredients"><li>1 onion</li></ul>'), 'f'),
    ).toEqual([]);
  });
});

describe('hostile pages', () => {
  it('read in bounded work: thousands of unclosed JSON-LD openings, nested recipe scopes and method sections', () => {
    const openings = '{"@context": "https://schema.org", "a": ['.repeat(20_000);
    const flight = `<script>self.__next_f.push(${JSON.stringify([1, openings])})</script>`;
    expect(parseHtmlRecipes(page('', flight), 'f')).toEqual([]);
    const nested =
      '<div itemscope itemtype="https://schema.org/Recipe"><span itemprop="recipeIngredient">1 egg</span>'.repeat(
        900,
      ) + '</div>'.repeat(900);
    expect(parseHtmlRecipes(page('', nested), 'f')).toHaveLength(1);
    const sections =
      '<div class="instructions"><p>Stir the pot slowly.</p>'.repeat(900) + '</div>'.repeat(900);
    const stub = ldJson({ '@type': 'Recipe', name: 'Stew', recipeIngredient: ['1 onion'] });
    expect(parseHtmlRecipes(page(stub, sections), 'f')[0]!.steps.length).toBeGreaterThan(0);
    // Containers nested 200,000 deep (the HTML parser's time grows with the square of the depth):
    // not read at all.
    const deep = '<div itemscope itemtype="https://schema.org/Recipe">' + '<div>'.repeat(200_000) + 'x';
    expect(parseHtmlRecipes(page('', deep), 'f')).toEqual([]);
  });
});

describe('Markdown front matter through a YAML parser', () => {
  it('reads folded descriptions, quoted titles with comments, lists and dates', () => {
    const text = `---
title: "Grandma's: Pie" # the family name
description: >
  A pie that
  everyone likes.
tags:
  - Dessert
  - baking
date: 2021-03-21
---

## Ingredients
- 1 cup flour

## Directions
1. Bake.
`;
    expect(parseMarkdownRecipe(text, 'pie')).toMatchObject({
      title: "Grandma's: Pie",
      description: 'A pie that everyone likes.',
      tags: ['dessert', 'baking'],
      steps: ['Bake.'],
    });
  });
});

const PAGES = path.resolve(import.meta.dirname, '../../../../shared/data/recipes-web/pages');

describe('real recipe pages saved from 120 sites (../shared/data/recipes-web)', () => {
  it.skipIf(!existsSync(PAGES))(
    'reads a recipe from at least 97% of the pages that carry structured data',
    () => {
      let structured = 0;
      let read = 0;
      for (const file of readdirSync(PAGES).filter((f) => f.endsWith('.html'))) {
        const recipes = parseHtmlRecipes(readFileSync(path.join(PAGES, file), 'utf8'), file);
        if (recipes.length === 0) continue;
        structured += 1;
        if (recipes.some((r) => r.ingredientLines.length > 0 && r.steps.length > 0)) read += 1;
      }
      expect(structured).toBeGreaterThanOrEqual(110);
      expect(read / structured).toBeGreaterThanOrEqual(0.97);
    },
  );
});
