import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.ts';

/** The console's files as the service serves them (the browser test drives them in Chromium). */
let ctx: TestApp;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => ctx?.close());

describe('the operators console files', () => {
  it('opens at /admin and /admin/ with a policy that allows only its own scripts', async () => {
    for (const path of ['/admin', '/admin/']) {
      const res = await fetch(ctx.baseUrl + path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('<script type="module" src="/admin/console.js">');
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
    }
  });

  it('serves its script and style, and nothing outside its folder', async () => {
    const script = await fetch(`${ctx.baseUrl}/admin/console.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect((await fetch(`${ctx.baseUrl}/admin/console.css`)).status).toBe(200);
    for (const path of [
      '/admin/../package.json',
      '/admin/%2e%2e/app.ts',
      '/admin/..%2fapp.ts',
      '/admin/missing.js',
    ]) {
      const res = await fetch(ctx.baseUrl + path);
      expect([403, 404]).toContain(res.status);
      expect(await res.text()).not.toContain('buildApp');
    }
  });

  it('keeps the strict API policy on API routes', async () => {
    const res = await fetch(`${ctx.baseUrl}/api/health`);
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it('sets untrusted flyer text only as text, never as markup', async () => {
    const source = await (await fetch(`${ctx.baseUrl}/admin/console.js`)).text();
    expect(source).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  });
});
