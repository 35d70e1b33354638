import path from 'node:path';
import { buildApp } from '../app.ts';
import { ConfigError, parseConfig } from '../platform/config.ts';
import { openDatabase } from '../platform/db/database.ts';
import { migrateToLatest } from '../platform/db/migrate.ts';
import { resolveJwtSecret } from '../platform/security/secrets.ts';

/**
 * `npm run worker`: only the background workers (flyer processing), no HTTP listener. Run any
 * number of these beside `npm start` with RUN_WORKERS=false on the API instances; the job queue
 * gives each job to one worker.
 */
async function main(): Promise<void> {
  const config = parseConfig();
  if (!config.databaseUrl) {
    // The embedded database belongs to one process: a separate worker needs the shared server.
    throw new ConfigError('npm run worker needs DATABASE_URL (PGlite cannot be shared between processes).');
  }
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: path.join(config.dataDir, 'pgdata'),
  });
  await migrateToLatest(database.db);
  // The services are built the same way as for the API; the app is never listened on.
  const { app, services } = await buildApp({
    config,
    database,
    jwtSecret: resolveJwtSecret(config.jwtSecret, config.dataDir),
  });
  const flyerWorker = await services.startFlyerWorker({ warmUp: true });
  app.log.info({ database: database.kind }, 'workers ready');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'stopping workers');
    const force = setTimeout(() => process.exit(1), 30_000).unref();
    try {
      await flyerWorker.stop();
      await app.close();
      await database.close();
    } finally {
      clearTimeout(force);
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
