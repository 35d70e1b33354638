import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type Api } from '../support/http.ts';
import { flyerForm, rowFlyer, waitFor } from '../support/flyers.ts';
import { startServiceProcess, type ServiceProcess } from '../support/processes.ts';

/**
 * The operators' console in Debian's Chromium (playwright-core), against a real service process
 * that processes a real flyer: sign in, open the flyer, see the boxes, correct a price, reject one,
 * promote, and read the user-facing promotions. Screenshots of each step go to
 * test-artifacts/browser/ (git-ignored) for a reviewer.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = path.resolve(import.meta.dirname, '../../test-artifacts/browser');
/** A real text-layer flyer from ../shared (a US fruit market), for a screenshot of real work. */
const REAL_FLYER = path.resolve(
  import.meta.dirname,
  '../../../shared/data/flyers-real/berwyn-fruit-market-us-2025-12-17.pdf',
);
const ADMIN = { email: 'console-admin@example.test', password: 'console-admin-password' };

let service: ServiceProcess;
let browser: Browser;
let page: Page;
let api: Api;
let adminToken: string;
let storeId: string;
let jobId: string;
let dataDir: string;
let shot = 0;
/** The first drawing of a page takes seconds on a busy machine. */
const POLL = { timeout: 30_000, interval: 100 };

async function screenshot(name: string): Promise<void> {
  shot += 1;
  await page.screenshot({
    path: path.join(SHOTS, `${String(shot).padStart(2, '0')}-${name}.png`),
    fullPage: true,
  });
}

async function candidates(): Promise<any[]> {
  const res = await api(
    'GET',
    `/api/admin/stores/${storeId}/candidates?job_id=${jobId}&include_low_confidence=true`,
    {
      token: adminToken,
    },
  );
  return res.body.items;
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH).`);
  rmSync(SHOTS, { recursive: true, force: true });
  mkdirSync(SHOTS, { recursive: true });
  dataDir = `/tmp/mise-browser-${randomBytes(4).toString('hex')}`;
  const database = process.env.TEST_DATABASE_URL;
  service = await startServiceProcess({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    ADMIN_EMAILS: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    SEED_CATALOG: 'false',
    RUN_WORKERS: 'true',
    ...(database ? { DATABASE_URL: database } : {}),
  });
  api = client(service.url);
  const login = await api('POST', '/api/auth/login', { body: ADMIN });
  adminToken = login.body.access_token;
  const store = await api('POST', '/api/admin/stores', {
    token: adminToken,
    body: { name: `Kiez Markt ${randomBytes(3).toString('hex')}`, logo_url: 'https://example.test/logo.png' },
  });
  storeId = store.body.id;
  const flyer = await rowFlyer();
  const upload = await api('POST', `/api/admin/stores/${storeId}/promotions/upload`, {
    token: adminToken,
    rawBody: flyerForm(flyer.bytes),
  });
  jobId = upload.body.job_id;
  await waitFor(async () => {
    const { body } = await api('GET', `/api/admin/stores/${storeId}/jobs`, { token: adminToken });
    const job = body.jobs.find((j: { id: string }) => j.id === jobId);
    if (job.status === 'failed') throw new Error(`the flyer failed: ${job.error}`);
    return job.status === 'completed' ? job : undefined;
  }, 60_000);

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Without these Chromium keeps calling Google's hosts, refused on a closed network.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const context = await browser.newContext({ viewport: { width: 1366, height: 800 } });
  page = await context.newPage();
  page.on('pageerror', (error) => console.error('console page error:', error.message));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the flyer review console', () => {
  it('signs an admin in and shows the start page with spend and stores', async () => {
    await page.goto(`${service.url}/admin/`);
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.locator('#login-error').textContent(), POLL).toMatch(/email or password/i);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#spend-cost').waitFor();
    expect(await page.locator('#who').textContent()).toBe(ADMIN.email);
    await expect.poll(() => page.locator('#stores a').count(), POLL).toBeGreaterThan(0);
    await screenshot('start-page');
  });

  it('keeps the session across a reload through the refresh cookie (the token was in memory only)', async () => {
    await page.reload();
    await page.locator('#spend-cost').waitFor();
    expect(await page.evaluate(() => localStorage.length + sessionStorage.length)).toBe(0);
  });

  it("opens the store's processed flyer and shows the page with each candidate's box", async () => {
    await page.locator('#stores a', { hasText: 'Kiez Markt' }).click();
    await page.locator(`#jobs tr[data-job="${jobId}"] .status-completed`).waitFor();
    await screenshot('store-jobs');
    await page.locator(`#jobs tr[data-job="${jobId}"] a`, { hasText: 'Review' }).click();
    await page.locator('.picture img').first().waitFor();
    const rows = await page.locator('tr[data-candidate]').count();
    expect(rows).toBe((await candidates()).length);
    expect(rows).toBeGreaterThanOrEqual(3);
    await expect.poll(() => page.locator('.box').count(), POLL).toBe(rows);
    // Each box lies on the picture, where its offer was read.
    const picture = await page.locator('.picture img').first().boundingBox();
    for (const box of await page.locator('.box').all()) {
      const b = (await box.boundingBox())!;
      expect(b.width).toBeGreaterThan(5);
      expect(b.x).toBeGreaterThanOrEqual(picture!.x - 1);
      expect(b.y + b.height).toBeLessThanOrEqual(picture!.y + picture!.height + 1);
    }
    await screenshot('flyer-review');
  });

  it('corrects a price in place (Enter saves)', async () => {
    const butterId = (await candidates()).find((c) => c.product === 'Butter').id;
    const price = page.locator(`tr[data-candidate="${butterId}"] input[name=discounted_price]`);
    await price.fill('2.29');
    await price.press('Enter');
    await expect.poll(() => page.locator('#job-status').textContent(), POLL).toMatch(/Saved/);
    const saved = (await candidates()).find((c) => c.product === 'Butter');
    expect(saved.discounted_price).toBe(2.29);
    await screenshot('price-corrected');
  });

  it('rejects one with the keyboard and selects and promotes the rest', async () => {
    await page.locator('#job-title').click(); // leave the input: keys act on the list again
    const all = await candidates();
    const milk = all.find((c) => c.product === 'Vollmilch');
    // Walk down with j until the current row is the milk, then r rejects it.
    await page.keyboard.press('k');
    await page.keyboard.press('k');
    await page.keyboard.press('k');
    for (let i = 0; i < all.length; i++) {
      if ((await page.locator('tr.current').getAttribute('data-candidate')) === milk.id) break;
      await page.keyboard.press('j');
    }
    await page.keyboard.press('r');
    await expect
      .poll(async () => (await candidates()).find((c) => c.id === milk.id).status, POLL)
      .toBe('rejected');
    await expect.poll(() => page.locator(`.box.rejected[data-candidate="${milk.id}"]`).count(), POLL).toBe(1);
    await screenshot('rejected');

    // a selects the current candidate: select every one still to review, then p promotes them.
    for (const c of all.filter((x) => x.id !== milk.id)) {
      await page.locator(`tr[data-candidate="${c.id}"] td:last-child`).click({ position: { x: 2, y: 2 } });
      await page.keyboard.press('a');
    }
    await page.keyboard.press('p');
    await expect.poll(() => page.locator('#job-status').textContent(), POLL).toMatch(/Promoted \d+/);
    const after = await candidates();
    expect(
      after
        .filter((c) => c.status === 'live')
        .map((c) => c.product)
        .sort(),
    ).toEqual(
      all
        .filter((c) => c.id !== milk.id)
        .map((c) => c.product)
        .sort(),
    );
    await screenshot('promoted');
  });

  it('shows users the corrected price, and not the rejected offer', async () => {
    const res = await api('GET', `/api/stores/${storeId}/promotions`);
    expect(res.status).toBe(200);
    const products = res.body.items.map((p: { product: string }) => p.product);
    expect(products).toContain('Butter');
    expect(products).not.toContain('Vollmilch');
    expect(res.body.items.find((p: { product: string }) => p.product === 'Butter').discounted_price).toBe(
      2.29,
    );
  });

  it.skipIf(!existsSync(REAL_FLYER))(
    'draws a real store flyer with a box on every candidate',
    async () => {
      const { readFileSync } = await import('node:fs');
      const upload = await api('POST', `/api/admin/stores/${storeId}/promotions/upload`, {
        token: adminToken,
        rawBody: flyerForm(readFileSync(REAL_FLYER)),
      });
      const realJob = upload.body.job_id;
      await page.goto(`${service.url}/admin/#/stores/${storeId}`);
      await page.locator(`#jobs tr[data-job="${realJob}"] .status-completed`).waitFor({ timeout: 120_000 });
      await page.locator(`#jobs tr[data-job="${realJob}"] a`, { hasText: 'Review' }).click();
      const expected = (
        await api(
          'GET',
          `/api/admin/stores/${storeId}/candidates?job_id=${realJob}&include_low_confidence=true`,
          {
            token: adminToken,
          },
        )
      ).body.total;
      expect(expected).toBeGreaterThan(10);
      await expect.poll(() => page.locator('tr[data-candidate]').count(), POLL).toBe(expected);
      const rows = expected;
      await expect.poll(() => page.locator('.box').count(), POLL).toBe(rows);
      await page.keyboard.press('j');
      await page.keyboard.press('j');
      await screenshot('real-flyer-review');
      // What a laptop screen shows (the README's picture of the console).
      await page.screenshot({ path: path.join(SHOTS, 'console-laptop.jpg'), type: 'jpeg', quality: 80 });
    },
    180_000,
  );

  it('turns away an account without admin rights', async () => {
    const email = `cook-${randomBytes(3).toString('hex')}@example.test`;
    await api('POST', '/api/auth/register', { body: { email, password: 'a-cook-password', name: 'Cook' } });
    const other = await browser.newContext();
    const tab = await other.newPage();
    await tab.goto(`${service.url}/admin/`);
    await tab.getByLabel('Email').fill(email);
    await tab.getByLabel('Password').fill('a-cook-password');
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => tab.locator('#login-error').textContent(), POLL).toMatch(/no admin rights/);
    expect(await tab.locator('#home-view').isHidden()).toBe(true);
    await other.close();
  });
});
