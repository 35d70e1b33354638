import { registerUser, request, underAttack, verdict, type Check } from './support.ts';

/** Attack: register a victim's device push token to silence their notifications. */
const checks = await underAttack({}, async (service) => {
  const victim = await registerUser(service.url, 'victim');
  const attacker = await registerUser(service.url, 'attacker');
  const device = `device-${process.pid}`;
  await request(service, 'POST', '/api/me/push-tokens', {
    token: victim.token,
    body: { token: device, platform: 'ios' },
  });
  const stolen = await request(service, 'POST', '/api/me/push-tokens', {
    token: attacker.token,
    body: { token: device, platform: 'ios' },
  });
  const victimTokens = await request(service, 'GET', '/api/me/push-tokens', { token: victim.token });
  const kept = Array.isArray(victimTokens.body) && victimTokens.body.some((t) => t.token === device);
  return [
    {
      name: 'the victim keeps their device registration',
      ok: kept,
      detail: `attacker's registration ${stolen.status}; victim has it: ${kept}`,
    },
  ] satisfies Check[];
});
verdict('push-token-steal', checks);
