import {
  FAULT_PASSWORD,
  refreshCookieOf,
  registerUser,
  request,
  underAttack,
  verdict,
  type Check,
} from './support.ts';

/**
 * An ordinary user with two tabs: both refresh with the same cookie at once. Neither may be logged
 * out. A thief replaying a used cookie later must still revoke the login (checked with a short
 * grace period so the script does not wait long).
 */
const checks = await underAttack({ REFRESH_REUSE_GRACE_SECONDS: '2' }, async (service) => {
  const checks: Check[] = [];
  const user = await registerUser(service.url, 'tabs');
  const login = async () =>
    refreshCookieOf(
      (
        await request(service, 'POST', '/api/auth/login', {
          body: { email: user.email, password: FAULT_PASSWORD },
        })
      ).headers,
    );
  const cookie = await login();
  const tabs = await Promise.all([1, 2].map(() => request(service, 'POST', '/api/auth/refresh', { cookie })));
  checks.push({
    name: 'two tabs refreshing at once both get a pair',
    ok: tabs.every((t) => t.status === 200),
    detail: tabs.map((t) => t.status).join(' '),
  });
  const next = await Promise.all(
    tabs.map((t) => request(service, 'POST', '/api/auth/refresh', { cookie: refreshCookieOf(t.headers) })),
  );
  checks.push({
    name: 'and both stay logged in',
    ok: next.every((t) => t.status === 200),
    detail: next.map((t) => t.status).join(' '),
  });

  const stolen = await login();
  const legit = await request(service, 'POST', '/api/auth/refresh', { cookie: stolen });
  await new Promise((r) => setTimeout(r, 3_000));
  const replay = await request(service, 'POST', '/api/auth/refresh', { cookie: stolen });
  const victimNext = await request(service, 'POST', '/api/auth/refresh', {
    cookie: refreshCookieOf(legit.headers),
  });
  checks.push({
    name: 'a replay after the grace period is refused and revokes the login',
    ok: replay.status === 401 && victimNext.status === 401,
    detail: `replay ${replay.status}, successor ${victimNext.status}`,
  });
  return checks;
});
verdict('refresh-two-tabs', checks);
