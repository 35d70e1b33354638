import { startFakeLlm } from '../../test/support/llm-fakes.ts';
import { registerUser, request, underAttack, verdict, type Check } from './support.ts';

/** Attack: make the upstream fail and read its internals (paths, keys, quotas) from our 502s. */
const model = await startFakeLlm('openai');
const secret = 'org-ABUSE-7F3A key sk-live-abuse at /srv/models/internal.py';
try {
  const checks = await underAttack(
    { LLM_BASE_URL: model.baseUrl, LLM_API_KEY: 'abuse', CHAT_MODEL: 'abuse-model' },
    async (service) => {
      const user = await registerUser(service.url, 'prober');
      const leaks: string[] = [];
      for (const step of [
        { status: 500, body: { error: { message: secret } } },
        { status: 429, body: { error: secret } },
        { status: 503, body: `<html>${secret}</html>` },
      ]) {
        model.script(step);
        const res = await request(service, 'POST', '/api/chat', {
          token: user.token,
          body: { message: 'hi' },
        });
        if (JSON.stringify(res.body).includes('ABUSE-7F3A')) leaks.push(String(res.status));
        if (res.status !== 502) leaks.push(`status ${res.status}`);
      }
      return [
        {
          name: 'upstream error text never reaches the client',
          ok: leaks.length === 0,
          detail: leaks.length ? `leaked in ${leaks.join(', ')}` : 'three 502s, none with upstream text',
        },
        {
          name: 'it is logged for the operator',
          ok: service.output().includes('ABUSE-7F3A'),
          detail: service.output().includes('ABUSE-7F3A') ? 'in the log' : 'not in the log',
        },
      ] satisfies Check[];
    },
  );
  verdict('upstream-error-leak', checks);
} finally {
  await model.close();
}
