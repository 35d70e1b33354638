import { startFakeLlm } from '../../test/support/llm-fakes.ts';
import { startImageService, startImagesApiFake } from '../../test/support/images-fake.ts';
import { registerUser, request, underAttack, verdict, type Check } from './support.ts';

/**
 * Attacks on the bill: a Free user starting image jobs without end, long answers that time out to
 * be refunded, and model calls without end. Each is bounded per user and UTC day.
 */
const model = await startFakeLlm('openai');
const imagesApi = await startImagesApiFake();
const imageService = await startImageService({
  IMAGE_SERVICE_TOKEN: 'abuse-image-token',
  IMAGE_API_BASE: `${imagesApi.baseUrl}/v1`,
  IMAGE_API_KEY: 'sk-abuse',
  IMAGE_MODEL: 'abuse-image-model',
  IMAGE_SIZE: '512x512',
});
try {
  const checks = await underAttack(
    {
      LLM_BASE_URL: model.baseUrl,
      LLM_API_KEY: 'abuse',
      CHAT_MODEL: 'abuse-model',
      LLM_TIMEOUT_MS: '1000',
      MODEL_CALLS_PER_DAY_FREE: '5',
      IMAGE_GEN_URL: imageService.baseUrl,
      IMAGE_GEN_TOKEN: 'abuse-image-token',
      SEED_CATALOG: 'true',
    },
    async (service) => {
      const checks: Check[] = [];
      const flooder = await registerUser(service.url, 'flooder');
      const search = await request(service, 'GET', '/api/recipes?limit=1', { token: flooder.token });
      const recipeId = String((search.body?.items as { id: string }[] | undefined)?.[0]?.id);
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await request(service, 'POST', `/api/image-gen/recipes/${recipeId}/hero`, {
          token: flooder.token,
          body: { title: 'anything', description: `prompt ${i}`, style: 'rustic' },
        });
        statuses.push(res.status);
      }
      checks.push({
        name: 'a Free user’s image jobs stop at the daily allowance (429 with reset_at)',
        ok: statuses.filter((s) => s === 200).length === 3 && statuses.slice(3).every((s) => s === 429),
        detail: statuses.join(' '),
      });

      const talker = await registerUser(service.url, 'talker');
      model.script({ hang: true });
      const timedOut = await request(service, 'POST', '/api/chat', {
        token: talker.token,
        body: { message: 'write me a very long essay', context: {} },
      });
      const after = await request(service, 'POST', '/api/chat', {
        token: talker.token,
        body: { message: 'hi', context: {} },
      });
      const counted = (after.body?.usage as { messages_today?: number } | undefined)?.messages_today;
      checks.push({
        name: 'a chat message whose model call timed out still counts',
        ok: timedOut.status === 504 && counted === 2,
        detail: `timeout ${timedOut.status}, then messages_today ${String(counted)}`,
      });

      const caller = await registerUser(service.url, 'caller');
      const modelStatuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await request(service, 'POST', '/api/chat', {
          token: caller.token,
          body: { message: `question ${i}`, context: {} },
        });
        modelStatuses.push(res.status);
      }
      checks.push({
        name: 'model calls stop at the daily allowance',
        ok:
          modelStatuses.slice(0, 5).every((s) => s === 200) && modelStatuses.slice(5).every((s) => s === 429),
        detail: modelStatuses.join(' '),
      });
      return checks;
    },
  );
  verdict('ai-costs', checks);
} finally {
  await model.close();
  await imageService.close();
  await imagesApi.close();
}
