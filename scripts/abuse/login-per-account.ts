import { request, registerUser, underAttack, verdict, type Check } from './support.ts';

/**
 * Attack: a botnet guesses one account's password from many addresses. Here the service sits
 * behind a proxy it trusts (TRUST_PROXY=127.0.0.1) which names each attempt's real client, so the
 * address limit does not stop it: the per-account back-off must, for existing and unknown emails
 * alike (the answers must not tell which accounts exist).
 */
const checks = await underAttack({ TRUST_PROXY: '127.0.0.1', AUTH_RATE_LIMIT_MAX: '10' }, async (service) => {
  const victim = await registerUser(service.url, 'victim');
  const guess = async (email: string) => {
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) {
      const res = await request(service, 'POST', '/api/auth/login', {
        body: { email, password: `guess-${i}` },
        headers: { 'x-forwarded-for': `198.51.100.${i + 1}` },
      });
      statuses.push(res.status);
    }
    return statuses;
  };
  const existing = await guess(victim.email);
  const unknown = await guess(`nobody-${process.pid}@example.test`);
  const limitedAfter = (s: number[]) => s.indexOf(429);
  return [
    {
      name: 'guesses at one account from 14 addresses are throttled',
      ok: limitedAfter(existing) !== -1 && limitedAfter(existing) <= 10,
      detail: existing.join(' '),
    },
    {
      name: 'an unknown email is answered exactly alike (no account enumeration)',
      ok: unknown.join(' ') === existing.join(' '),
      detail: unknown.join(' '),
    },
  ] satisfies Check[];
});
verdict('login-per-account', checks);
