import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/factories.ts';
import { client, expectProblem, type Api } from '../../../test/support/http.ts';
import { seedIngredientsForTest } from '../../../test/support/ingredients.ts';
import {
  fetchPublicPage,
  isPublicAddress,
  type PublicFetchOptions,
} from '../../platform/net/public-fetch.ts';

// A German page as recipe sites write it: JSON-LD inside an SEO plugin's @graph, entities, sections.
const GERMAN_PAGE = `<!doctype html><html lang="de"><head><title>Kartoffelsuppe</title>
<script type="application/ld+json">${JSON.stringify({
  '@context': 'https://schema.org',
  '@graph': [
    { '@type': 'WebPage', name: 'Kartoffelsuppe' },
    {
      '@type': ['Recipe'],
      name: 'Omas Kartoffelsuppe mit Lauch &amp; Speck',
      description: 'Eine einfache Suppe f&uuml;r kalte Tage.',
      image: { '@type': 'ImageObject', url: 'https://img.example/suppe.jpg' },
      recipeYield: ['4', '4 Portionen'],
      prepTime: 'PT20M',
      cookTime: 'PT35M',
      recipeIngredient: [
        '1 kg Kartoffeln, mehligkochend',
        '2 Stangen Lauch',
        '1 Zwiebel',
        '100 g Speck',
        '1 l Gemüsebrühe',
        '2 EL Butter',
        '1 Prise Salz',
        'Pfeffer aus der Mühle',
        '1 Handvoll Gänseblümchen vom Markt',
      ],
      recipeInstructions: [
        {
          '@type': 'HowToSection',
          name: 'Suppe',
          itemListElement: [
            { '@type': 'HowToStep', text: 'Kartoffeln schälen und würfeln.' },
            {
              '@type': 'HowToStep',
              text: 'Lauch und Zwiebel in Butter anschwitzen, Brühe und Kartoffeln dazugeben.',
            },
          ],
        },
        { '@type': 'HowToStep', text: 'Mit Speck servieren.' },
      ],
    },
  ],
})}</script></head><body><h1>Kartoffelsuppe</h1></body></html>`;

const NO_RECIPE_PAGE =
  '<!doctype html><html><head><title>About us</title></head><body><p>Hello</p></body></html>';

/** A site on this machine: answers on every loopback address and counts who asked for what. */
function startSite(): Promise<{ server: http.Server; port: number; hits: string[]; agents: string[] }> {
  const hits: string[] = [];
  const agents: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.socket.localAddress} ${req.url}`);
    agents.push(req.headers['user-agent'] ?? '');
    const port = (server.address() as AddressInfo).port;
    if (req.url === '/recipe') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(GERMAN_PAGE);
    } else if (req.url === '/latin1') {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1' })
        .end(Buffer.from(GERMAN_PAGE, 'latin1'));
    } else if (req.url === '/nothing') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(NO_RECIPE_PAGE);
    } else if (req.url === '/moved') {
      res.writeHead(301, { location: '/recipe' }).end();
    } else if (req.url === '/to-private') {
      res.writeHead(302, { location: `http://127.0.0.2:${port}/recipe` }).end();
    } else if (req.url === '/to-metadata') {
      res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    } else if (req.url === '/to-file') {
      res.writeHead(302, { location: 'file:///etc/passwd' }).end();
    } else if (req.url === '/loop') {
      res.writeHead(302, { location: '/loop' }).end();
    } else if (req.url === '/pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.7');
    } else if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html>${'x'.repeat(300_000)}</html>`);
    } else if (req.url === '/bomb') {
      // 50 MB of zeros, a few kilobytes on the wire.
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      res.end(zlib.gzipSync(Buffer.alloc(50_000_000)));
    } else if (req.url === '/slow') {
      // Never answers: the importer must give up by itself.
    } else {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '0.0.0.0', () =>
      resolve({ server, port: (server.address() as AddressInfo).port, hits, agents }),
    ),
  );
}

let ctx: TestApp;
let api: Api;
let site: Awaited<ReturnType<typeof startSite>>;
let pro: TestUser;
let otherPro: TestUser;
let free: TestUser;
const at = (path: string) => `http://127.0.0.1:${site.port}${path}`;

beforeAll(async () => {
  site = await startSite();
  // Only this one loopback address is allowed (the setting is off by default): every other
  // loopback address still answers on this machine, so a missed check would show.
  ctx = await startTestApp({
    RECIPE_IMPORT_ALLOWED_NETWORKS: '127.0.0.1/32',
    RECIPE_IMPORT_MAX_BYTES: '200000',
    RECIPE_IMPORT_TIMEOUT_MS: '1500',
  });
  api = client(ctx.baseUrl);
  await seedIngredientsForTest(ctx);
  [pro, otherPro, free] = await Promise.all([
    createUser(ctx, { tier: 'pro' }),
    createUser(ctx, { tier: 'pro' }),
    createUser(ctx),
  ]);
});
afterAll(async () => {
  site.server.closeAllConnections();
  await new Promise((resolve) => site.server.close(resolve));
  await ctx.close();
});

const importUrl = (url: string, token = pro.token) =>
  api('POST', '/api/recipes/import', { token, body: { url } });

describe('POST /api/recipes/import', () => {
  it('imports a page by URL as the caller’s private recipe and answers the lines it could not match', async () => {
    const res = await importUrl(at('/recipe'));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Omas Kartoffelsuppe mit Lauch & Speck',
      description: 'Eine einfache Suppe für kalte Tage.',
      servings: 4,
      prep_time: 20,
      cook_time: 35,
      is_public: false,
      source: {
        url: at('/recipe'),
        image_url: 'https://img.example/suppe.jpg',
        language: 'de',
        form: 'json-ld',
      },
    });
    const names = res.body.ingredients.map((i: { name: string }) => i.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'potato',
        'leek',
        'onion',
        'bacon',
        'vegetable stock',
        'butter',
        'salt',
        'black pepper',
      ]),
    );
    expect(res.body.ingredients.find((i: { name: string }) => i.name === 'potato')).toMatchObject({
      quantity: 1,
      unit: 'kg',
    });
    expect(res.body.unmatched).toEqual(['1 Handvoll Gänseblümchen vom Markt']);
    expect(res.body.steps.map((s: { instruction: string }) => s.instruction)).toEqual([
      'Kartoffeln schälen und würfeln.',
      'Lauch und Zwiebel in Butter anschwitzen, Brühe und Kartoffeln dazugeben.',
      'Mit Speck servieren.',
    ]);
    // Nutrition is derived from the matched ingredients, as for a recipe a user writes.
    expect(res.body.nutrition.calories).toBeGreaterThan(100);
    expect(site.agents.at(-1)).toMatch(/^mise-recipe-import\//);

    expect((await api('GET', `/api/recipes/${res.body.id}`, { token: pro.token })).status).toBe(200);
    expectProblem(
      await api('GET', `/api/recipes/${res.body.id}`, { token: otherPro.token }),
      404,
      'not_found',
    );
  });

  it('imports pasted HTML, follows a redirect, and decodes the page’s charset', async () => {
    const pasted = await api('POST', '/api/recipes/import', {
      token: pro.token,
      body: { html: GERMAN_PAGE },
    });
    expect(pasted.status).toBe(201);
    expect(pasted.body.source.url).toBeNull();
    const moved = await importUrl(at('/moved'));
    expect(moved.status).toBe(201);
    expect(moved.body.source.url).toBe(at('/recipe'));
    const latin1 = await importUrl(at('/latin1'));
    expect(latin1.status).toBe(201);
    expect(latin1.body.description).toBe('Eine einfache Suppe für kalte Tage.');
  });

  it('answers 422 no_structured_recipe for a page without a recipe, and 400 for neither or both inputs', async () => {
    const none = expectProblem(await importUrl(at('/nothing')), 422, 'no_structured_recipe');
    expect(none.detail).toBe('No structured recipe on this page.');
    expectProblem(
      await api('POST', '/api/recipes/import', { token: pro.token, body: {} }),
      400,
      'validation_error',
    );
    expectProblem(
      await api('POST', '/api/recipes/import', {
        token: pro.token,
        body: { url: at('/recipe'), html: GERMAN_PAGE },
      }),
      400,
      'validation_error',
    );
    expectProblem(await importUrl('ftp://127.0.0.1/recipe'), 400, 'validation_error');
  });

  it('is a Pro feature like creating a recipe', async () => {
    expectProblem(await importUrl(at('/recipe'), free.token), 403, 'tier_required');
    expectProblem(
      await api('POST', '/api/recipes/import', { body: { url: at('/recipe') } }),
      401,
      'unauthorized',
    );
  });

  it.each([
    ['loopback', 'http://127.0.0.2:PORT/recipe'],
    ['loopback IPv6', 'http://[::1]:PORT/recipe'],
    ['IPv4 inside IPv6', 'http://[::ffff:127.0.0.2]:PORT/recipe'],
    ['unspecified', 'http://0.0.0.0:PORT/recipe'],
    ['a decimal loopback', 'http://2130706434:PORT/recipe'],
    ['private 10/8', 'http://10.1.2.3/recipe'],
    ['private 172.16/12', 'http://172.16.0.1/recipe'],
    ['private 192.168/16', 'http://192.168.1.1/recipe'],
    ['link-local (cloud metadata)', 'http://169.254.169.254/latest/meta-data/'],
    ['carrier-grade NAT', 'http://100.64.0.1/'],
    ['unique-local IPv6', 'http://[fd00::1]/'],
    ['link-local IPv6', 'http://[fe80::1]/'],
    ['NAT64 of a private address', 'http://[64:ff9b::a00:1]/'],
    ['multicast', 'http://224.0.0.1/'],
    ['localhost by name', 'http://localhost:PORT/recipe'],
    ['credentials in the URL', 'http://user:secret@127.0.0.1:PORT/recipe'],
  ])('refuses %s without connecting', async (_label, url) => {
    const before = site.hits.length;
    expectProblem(await importUrl(url.replace('PORT', String(site.port))), 422, 'url_not_allowed');
    expect(site.hits.length).toBe(before);
  });

  it('checks every redirect: into a private range, to cloud metadata, to a file, or without end', async () => {
    const before = site.hits.length;
    expectProblem(await importUrl(at('/to-private')), 422, 'url_not_allowed');
    expectProblem(await importUrl(at('/to-metadata')), 422, 'url_not_allowed');
    expectProblem(await importUrl(at('/to-file')), 422, 'url_not_allowed');
    // Only the redirecting pages were asked; the private target never was.
    expect(site.hits.slice(before).every((h) => h.startsWith('127.0.0.1 '))).toBe(true);
    expectProblem(await importUrl(at('/loop')), 422, 'page_unreachable');
  });

  it('bounds size (also after decompression), time and content type', async () => {
    expectProblem(await importUrl(at('/big')), 422, 'page_unreachable');
    expectProblem(await importUrl(at('/bomb')), 422, 'page_unreachable');
    expectProblem(await importUrl(at('/slow')), 422, 'page_unreachable');
    expectProblem(await importUrl(at('/pdf')), 422, 'unsupported_page');
    expectProblem(await importUrl(`http://127.0.0.1:${site.port}/missing`), 422, 'page_unreachable');
  });
});

describe('fetchPublicPage: names whose DNS answers change', () => {
  const options = (lookup: PublicFetchOptions['lookup']): PublicFetchOptions => ({
    maxBytes: 1_000_000,
    timeoutMs: 2000,
    maxRedirects: 3,
    userAgent: 'test',
    accept: ['text/html'],
    allowedNetworks: ['127.0.0.1/32'],
    lookup,
  });

  it('checks the address each connection uses: a second answer into a private range is refused', async () => {
    let calls = 0;
    // First answer: the allowed address (standing in for a public one); then a private one.
    const rebinding = async () => [{ address: calls++ === 0 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
    const before = site.hits.length;
    const page = await fetchPublicPage(`http://rebind.test:${site.port}/recipe`, options(rebinding));
    expect(page.body).toContain('Kartoffelsuppe');
    await expect(
      fetchPublicPage(`http://rebind.test:${site.port}/recipe`, options(rebinding)),
    ).rejects.toMatchObject({
      code: 'url_not_allowed',
    });
    // A redirect to the same name is a new connection, and its answer is checked again.
    calls = 0;
    await expect(
      fetchPublicPage(`http://rebind.test:${site.port}/moved`, options(rebinding)),
    ).rejects.toMatchObject({
      code: 'url_not_allowed',
    });
    expect(site.hits.slice(before).every((h) => h.startsWith('127.0.0.1 '))).toBe(true);
  });

  it('refuses a name with any private address among its answers', async () => {
    const mixed = async () => [
      { address: '127.0.0.1', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    await expect(
      fetchPublicPage(`http://mixed.test:${site.port}/recipe`, options(mixed)),
    ).rejects.toMatchObject({
      code: 'url_not_allowed',
    });
  });

  it('tells public addresses from the others', () => {
    for (const address of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '8.8.8.8'])
      expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '169.254.169.254',
      '::1',
      'fd00:ec2::254',
      '::ffff:192.168.0.1',
      '192.0.2.1',
      'x',
    ])
      expect(isPublicAddress(address), address).toBe(false);
  });
});
