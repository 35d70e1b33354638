import { request, underAttack, verdict, type Check } from './support.ts';

/**
 * Attack: brute-force logins, each with a different forged X-Forwarded-For, to get a fresh
 * per-address budget every time. With TRUST_PROXY unset (the default) the header is not believed:
 * the attempts share the socket's address and are refused with 429 from the 11th on.
 */
const checks = await underAttack({ AUTH_RATE_LIMIT_MAX: '10' }, async (service) => {
  const statuses: number[] = [];
  for (let i = 0; i < 14; i++) {
    const res = await request(service, 'POST', '/api/auth/login', {
      body: { email: `target${i}@example.test`, password: 'guess-number-' + i },
      headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
    });
    statuses.push(res.status);
  }
  const firstLimited = statuses.indexOf(429);
  return [
    {
      name: 'forged X-Forwarded-For does not reset the address limit',
      ok: firstLimited !== -1 && firstLimited <= 10 && statuses.slice(firstLimited).every((s) => s === 429),
      detail: statuses.join(' '),
    },
  ] satisfies Check[];
});
verdict('login-xff-dodge', checks);
