import { progressBar } from '../modules/images/backfill.ts';
import { ConfigError, parseConfig } from '../platform/config.ts';
import { AppError } from '../platform/errors.ts';
import { withServices } from './services.ts';

/**
 * npm run images:backfill [-- --max-jobs=50] [--per-minute=10] [--timeout=600] [--as=<admin email>]
 * A hero image for every catalog recipe without one, from the configured image service
 * (IMAGE_GEN_URL), attached to the recipes in the database the service uses. Runs as an admin
 * account (the first with rights, or --as). Resumable: run it again after a stop or a crash and
 * the jobs already started are polled, not paid for twice.
 */
const flag = (name: string, fallback: number): number => {
  const raw = process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new ConfigError(`--${name} must be a non-negative number`);
  return value;
};

async function main(): Promise<number> {
  const config = parseConfig();
  const maxJobs = flag('max-jobs', 50);
  const perMinute = flag('per-minute', 10);
  const timeoutSeconds = flag('timeout', 600);
  const as = process.argv.find((a) => a.startsWith('--as='))?.split('=')[1];
  return withServices(config, async (services) => {
    const admins = await services.accounts.listAdmins();
    const admin = as ? admins.find((a) => a.email === as.toLowerCase()) : admins[0];
    if (!admin) {
      console.error(
        as ? `${as} is not an admin (npm run admin -- grant ${as})` : 'no admin account: set ADMIN_EMAILS',
      );
      return 2;
    }
    const operator = { id: admin.id, email: admin.email, tier: admin.tier, isAdmin: true, record: admin };
    const interactive = process.stderr.isTTY;
    let last = '';
    const progress = await services.images.backfillCatalog(operator, {
      maxJobs,
      perMinute,
      pollIntervalMs: 2000,
      pollTimeoutMs: timeoutSeconds * 1000,
      onProgress: (p) => {
        const line = progressBar(p);
        if (line === last) return;
        last = line;
        process.stderr.write(interactive ? `\r${line}` : `${line}\n`);
      },
    });
    if (interactive) process.stderr.write('\n');
    console.log(
      `images:backfill: ${progress.total} catalog recipes without an image; ${progress.started} jobs started, ` +
        `${progress.resumed} resumed, ${progress.attached} attached, ${progress.failed} failed, ${progress.left} left for a later run`,
    );
    return progress.failed > 0 ? 1 : 0;
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof AppError || error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
