import { flyerForm, multiPageFlyer } from '../../test/support/flyers.ts';
import { startServiceProcess, type ServiceProcess } from '../../test/support/processes.ts';
import { FAULT_PASSWORD, quick, loginUser, sleep, verdict, withDatabase, type Check } from './support.ts';

/**
 * Fault (b): the service is killed with SIGKILL while it processes a flyer. After a restart the
 * job must complete, exactly once: every page's offer extracted once (no duplicates from the
 * killed attempt), the job completed. The service runs with its production recovery settings: the
 * dead attempt stops beating, the restarted worker's sweep finds it silent for 45 s and runs it
 * again; the limit below allows for that plus processing.
 */
const PAGES = quick ? 20 : 40;
const RESUME_LIMIT_MS = 180_000;

interface Job {
  id: string;
  status: string;
  pages_processed: number;
  candidates_extracted: number;
  error: string | null;
}

const checks = await withDatabase(async (databaseUrl) => {
  const adminEmail = `faults-admin-${process.pid}@example.test`;
  const env = {
    DATABASE_URL: databaseUrl,
    DATA_DIR: `/tmp/mise-faults-flyer-${process.pid}`,
    NODE_ENV: 'test',
    ADMIN_EMAILS: adminEmail,
    ADMIN_PASSWORD: FAULT_PASSWORD,
    RATE_LIMIT_MAX: '100000000',
    AUTH_RATE_LIMIT_MAX: '100000',
    RUN_WORKERS: 'true',
    SEED_CATALOG: 'false',
  };
  const checks: Check[] = [];
  let service: ServiceProcess | undefined = await startServiceProcess(env);
  try {
    const token = await loginUser(service.url, adminEmail);
    // Access tokens live 15 minutes and the wait below can be longer: log in again on 401.
    const auth = { authorization: `Bearer ${token}` };
    const relogin = async (s: ServiceProcess) => {
      const res = await fetch(`${s.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: adminEmail, password: FAULT_PASSWORD }),
      });
      auth.authorization = `Bearer ${((await res.json()) as { access_token: string }).access_token}`;
    };
    const storeRes = await fetch(`${service.url}/api/admin/stores`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Fault Mart', logo_url: 'https://example.test/logo.png' }),
    });
    const store = (await storeRes.json()) as { id: string };
    const flyer = await multiPageFlyer(PAGES, 'Fault');
    const upload = await fetch(`${service.url}/api/admin/stores/${store.id}/promotions/upload`, {
      method: 'POST',
      headers: auth,
      body: flyerForm(flyer.bytes),
    });
    const { job_id: jobId } = (await upload.json()) as { job_id: string };
    let lastPollProblem = '';
    const jobOf = async (s: ServiceProcess): Promise<Job | undefined> => {
      // A transient failure (the service busy starting its workers) is retried by the caller's loop.
      const res = await fetch(`${s.url}/api/admin/stores/${store.id}/jobs`, { headers: auth }).catch(
        () => undefined,
      );
      if (res?.status === 401) await relogin(s);
      if (res?.status !== 200) {
        lastPollProblem = res ? `${res.status} ${await res.text()}` : 'no answer';
        return undefined;
      }
      return ((await res.json()) as { jobs: Job[] }).jobs.find((j) => j.id === jobId);
    };

    // Kill as soon as the job is under way: processing, with at least one page done.
    let atKill: Job | undefined;
    const killDeadline = Date.now() + 60_000;
    while (Date.now() < killDeadline) {
      const job = await jobOf(service);
      if (job && job.status === 'processing' && job.pages_processed >= 1) {
        atKill = job;
        break;
      }
      if (job && job.status !== 'pending' && job.status !== 'processing') break;
      await sleep(25);
    }
    await service.stop('SIGKILL');
    service = undefined;
    checks.push({
      name: 'killed during processing',
      ok: atKill !== undefined && atKill.pages_processed < PAGES,
      detail: atKill
        ? `SIGKILL at ${atKill.pages_processed}/${PAGES} pages`
        : 'the job was never seen mid-way (finished or failed too fast, or never started)',
    });

    const restartedAt = Date.now();
    service = await startServiceProcess(env);
    let final: Job | undefined;
    while (Date.now() - restartedAt < RESUME_LIMIT_MS) {
      final = await jobOf(service);
      if (final && (final.status === 'completed' || final.status === 'failed')) break;
      await sleep(500);
    }
    checks.push({
      name: 'the job completes after the restart',
      ok: final?.status === 'completed',
      detail: `status ${final?.status ?? 'unknown'} after ${Math.round((Date.now() - restartedAt) / 1000)} s (limit ${RESUME_LIMIT_MS / 1000} s)${final?.error ? `; error: ${final.error}` : ''}${final ? '' : `; last poll: ${lastPollProblem.slice(0, 200)}`}`,
    });
    const candidates = await fetch(
      `${service.url}/api/admin/stores/${store.id}/candidates?job_id=${jobId}&limit=100`,
      { headers: auth },
    );
    const list = (await candidates.json()) as { items: { product: string }[]; total: number };
    const products = list.items.map((c) => c.product);
    const distinct = new Set(products);
    checks.push({
      name: 'exactly once: every page extracted once',
      ok: final?.status === 'completed' && list.total === PAGES && distinct.size === PAGES,
      detail: `${list.total} candidates for ${PAGES} one-offer pages, ${distinct.size} distinct products; job says ${final?.candidates_extracted ?? '?'} extracted, ${final?.pages_processed ?? '?'} pages`,
    });
  } catch (error) {
    checks.push({ name: 'script ran', ok: false, detail: String(error) });
  } finally {
    await service?.stop();
  }
  return checks;
});
verdict('faults/flyer-kill', checks);
