import { contentBombPdf, hugeImagePdf, manyPagesPdf } from '../../test/support/hostile-pdfs.ts';
import { flyerForm } from '../../test/support/flyers.ts';
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
 * Attack: upload flyers built to exhaust the service: 10,000 pages, a 30,000 × 30,000 image and a
 * decompression bomb. Each job must fail with a clear error while the API keeps answering.
 */
const checks = await underAttack({ RUN_WORKERS: 'true', FLYER_MEMORY_MB: '256' }, async (service) => {
  const checks: Check[] = [];
  const token = await loginUser(service.url, ABUSE_ADMIN, FAULT_PASSWORD);
  const store = await request(service, 'POST', '/api/admin/stores', {
    token,
    body: { name: 'Hostile Mart', logo_url: 'https://example.test/logo.png' },
  });
  const storeId = String(store.body?.id);
  const hostile: [string, Uint8Array, RegExp][] = [
    ['10,000 pages', await manyPagesPdf(10_000), /10000 pages/],
    ['a 30,000 × 30,000 image', await hugeImagePdf(30_000, 30_000), /larger than \d+ pixels/],
    ['a decompression bomb', await contentBombPdf(1024 * 1024 * 1024), /more than 256 MB|took over/],
  ];
  const jobs = new Map<string, [string, RegExp]>();
  for (const [name, bytes, expected] of hostile) {
    const upload = await fetch(`${service.url}/api/admin/stores/${storeId}/promotions/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: flyerForm(bytes),
    });
    const body = (await upload.json()) as { job_id?: string };
    if (upload.status === 202 && body.job_id) jobs.set(body.job_id, [name, expected]);
    else checks.push({ name: `upload of ${name}`, ok: false, detail: String(upload.status) });
  }
  const healthLatencies: number[] = [];
  const deadline = Date.now() + 120_000;
  let listed: { id: string; status: string; error: string | null }[] = [];
  while (Date.now() < deadline) {
    const started = performance.now();
    const health = await request(service, 'GET', '/api/health');
    healthLatencies.push(health.status === 200 ? performance.now() - started : Infinity);
    const res = await request(service, 'GET', `/api/admin/stores/${storeId}/jobs`, { token });
    listed = ((res.body?.jobs ?? []) as typeof listed).filter((j) => jobs.has(j.id));
    if (listed.length === jobs.size && listed.every((j) => j.status === 'completed' || j.status === 'failed'))
      break;
    await new Promise((r) => setTimeout(r, 500));
  }
  for (const job of listed) {
    const [name, expected] = jobs.get(job.id)!;
    const bounded = job.status === 'failed' && expected.test(job.error ?? '');
    checks.push({
      name: `${name}: the job ends within its bounds`,
      ok: bounded,
      detail: `${job.status}${job.error ? `: ${job.error}` : ''}`,
    });
  }
  if (listed.length < jobs.size)
    checks.push({ name: 'every job ended', ok: false, detail: `${listed.length}/${jobs.size}` });
  const worst = Math.max(...healthLatencies);
  checks.push({
    name: 'the API kept answering throughout',
    ok: Number.isFinite(worst) && service.child.exitCode === null,
    detail: `${healthLatencies.length} health checks, slowest ${worst.toFixed(0)} ms`,
  });
  return checks;
});
verdict('hostile-flyer', checks);
