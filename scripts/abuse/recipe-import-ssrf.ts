import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import pg from 'pg';
import { registerUser, request, underAttack, verdict, type Check } from './support.ts';

/**
 * Attack: a Pro user makes the recipe importer fetch what only the server can reach (SSRF): an
 * internal service on another loopback address, the cloud metadata address, the same through a
 * redirect from an innocent-looking page, and a gzip bomb. The operator allowed exactly one
 * address (standing in for the public web); nothing internal may be asked, nothing of it may come
 * back, and the service must stay up.
 */
const SECRET = `internal-secret-${process.pid}`;
const internalHits: string[] = [];
const site = http.createServer((req, res) => {
  const local = req.socket.localAddress ?? '';
  if (!local.endsWith('127.0.0.1')) {
    internalHits.push(`${local} ${req.url}`);
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${SECRET}</body></html>`);
    return;
  }
  const port = (site.address() as AddressInfo).port;
  if (req.url === '/innocent') res.writeHead(302, { location: `http://127.0.0.2:${port}/admin` }).end();
  else if (req.url === '/metadata')
    res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
  else if (req.url === '/bomb') {
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
    res.end(zlib.gzipSync(Buffer.alloc(60_000_000)));
  } else res.writeHead(404).end();
});
await new Promise<void>((resolve) => site.listen(0, '0.0.0.0', resolve));
const port = (site.address() as AddressInfo).port;

try {
  const checks = await underAttack(
    { RECIPE_IMPORT_ALLOWED_NETWORKS: '127.0.0.1/32' },
    async (service, databaseUrl) => {
      const attacker = await registerUser(service.url, 'attacker');
      const db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      await db.query(`update users set tier = 'pro' where email = $1`, [attacker.email]);
      await db.end();
      const importing = (url: string) =>
        request(service, 'POST', '/api/recipes/import', { token: attacker.token, body: { url } });

      const direct = [
        `http://127.0.0.2:${port}/admin`,
        `http://[::1]:${port}/admin`,
        `http://localhost:${port}/admin`,
        `http://2130706434:${port}/admin`,
        `http://[::ffff:127.0.0.2]:${port}/admin`,
        'http://169.254.169.254/latest/meta-data/',
        'http://[fd00:ec2::254]/latest/meta-data/',
      ];
      const answers = [];
      for (const url of direct) answers.push(await importing(url));
      const viaRedirect = [
        await importing(`http://127.0.0.1:${port}/innocent`),
        await importing(`http://127.0.0.1:${port}/metadata`),
      ];
      const started = Date.now();
      const bomb = await importing(`http://127.0.0.1:${port}/bomb`);
      const bombMs = Date.now() - started;
      const health = await request(service, 'GET', '/api/health');
      const all = [...answers, ...viaRedirect];
      return [
        {
          name: 'every internal address is refused (422 url_not_allowed)',
          ok: all.every((a) => a.status === 422 && a.body?.code === 'url_not_allowed'),
          detail: all.map((a) => `${a.status} ${String(a.body?.code)}`).join(', '),
        },
        {
          name: 'nothing internal was ever asked, directly or through a redirect',
          ok: internalHits.length === 0,
          detail:
            internalHits.length === 0 ? 'no request reached an internal address' : internalHits.join('; '),
        },
        {
          name: 'no answer carries anything of an internal page',
          ok: [...all, bomb].every((a) => !JSON.stringify(a.body ?? '').includes(SECRET)),
          detail: 'the refusals name the rule, not the content',
        },
        {
          name: 'a gzip bomb is cut off by its decompressed size, and the service stays up',
          ok: bomb.status === 422 && health.status === 200,
          detail: `bomb ${bomb.status} ${String(bomb.body?.code)} after ${bombMs} ms; health ${health.status}`,
        },
      ] satisfies Check[];
    },
  );
  verdict('recipe-import-ssrf', checks);
} finally {
  site.closeAllConnections();
  site.close();
}
