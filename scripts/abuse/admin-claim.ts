import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ABUSE_ADMIN,
  FAULT_PASSWORD,
  loginUser,
  request,
  underAttack,
  verdict,
  type Check,
} from './support.ts';

/**
 * Attack: claim admin rights by registering an address listed in ADMIN_EMAILS before its owner
 * does. The service creates listed accounts itself at start, so registering answers 409; an
 * address registered before the service was configured gets no rights until the operator grants
 * them with `npm run admin -- grant`.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const late = `late-admin-${process.pid}@example.test`;

const checks = await underAttack({}, async (service, databaseUrl) => {
  const checks: Check[] = [];
  const claim = await request(service, 'POST', '/api/auth/register', {
    body: { email: ABUSE_ADMIN, password: 'attacker-password', name: 'Mallory' },
  });
  checks.push({
    name: 'registering a listed admin address answers 409',
    ok: claim.status === 409 && claim.body?.code === 'email_taken',
    detail: `${claim.status} ${String(claim.body?.code)}`,
  });
  const attackerLogin = await request(service, 'POST', '/api/auth/login', {
    body: { email: ABUSE_ADMIN, password: 'attacker-password' },
  });
  checks.push({
    name: 'the attacker’s password does not open the admin account',
    ok: attackerLogin.status === 401,
    detail: String(attackerLogin.status),
  });
  const adminToken = await loginUser(service.url, ABUSE_ADMIN, FAULT_PASSWORD);
  const store = await request(service, 'POST', '/api/admin/stores', {
    token: adminToken,
    body: { name: 'Real Admin Mart', logo_url: 'https://example.test/logo.png' },
  });
  checks.push({
    name: 'the account the service created administers',
    ok: store.status === 201,
    detail: String(store.status),
  });

  // Someone registers an address before the operator lists it; the operator then lists it.
  await request(service, 'POST', '/api/auth/register', {
    body: { email: late, password: FAULT_PASSWORD, name: 'Early bird' },
  });
  const relisted = await import('../../test/support/processes.ts').then((p) =>
    p.startServiceProcess({
      DATABASE_URL: databaseUrl,
      DATA_DIR: `/tmp/mise-abuse-${process.pid}`,
      NODE_ENV: 'test',
      SEED_CATALOG: 'false',
      RUN_WORKERS: 'false',
      ADMIN_EMAILS: `${ABUSE_ADMIN},${late}`,
      ADMIN_PASSWORD: FAULT_PASSWORD,
      LOG_LEVEL: 'warn',
    }),
  );
  try {
    const lateToken = await loginUser(relisted.url, late);
    const before = await request(relisted, 'GET', '/api/admin/admins', { token: lateToken });
    checks.push({
      name: 'a listed address registered by someone else holds no rights',
      ok: before.status === 403,
      detail: String(before.status),
    });
    checks.push({
      name: 'the start-up log says so',
      ok: relisted.output().includes('NO admin rights'),
      detail: relisted.output().includes('NO admin rights') ? 'warned' : 'no warning in the log',
    });
    const grant = spawnSync(process.execPath, ['src/cli/admin.ts', 'grant', late], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const after = await request(relisted, 'GET', '/api/admin/admins', { token: lateToken });
    checks.push({
      name: 'only the operator’s `npm run admin -- grant` gives them',
      ok: grant.status === 0 && after.status === 200,
      detail: `cli exit ${grant.status}, then ${after.status}`,
    });
  } finally {
    await relisted.stop();
  }
  return checks;
});
verdict('admin-claim', checks);
