import path from 'node:path';
import { buildApp } from '../app.ts';
import { checkHeapHoldsSearchIndex, ConfigError, parseConfig } from '../platform/config.ts';
import { openDatabase } from '../platform/db/database.ts';
import { migrateToLatest } from '../platform/db/migrate.ts';
import { resolveJwtSecret } from '../platform/security/secrets.ts';
import { seedReferenceData, startBackgroundWork } from '../modules/index.ts';

async function main(): Promise<void> {
  const config = parseConfig();
  checkHeapHoldsSearchIndex(config);
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: path.join(config.dataDir, 'pgdata'),
    statementTimeoutMs: config.dbStatementTimeoutMs,
  });
  await migrateToLatest(database.db);
  const { app, services, deps } = await buildApp({
    config,
    database,
    jwtSecret: resolveJwtSecret(config.jwtSecret, config.dataDir),
  });
  // Seeding a fresh database may take longer than a request's statement timeout allows.
  if (config.seedCatalog) {
    await deps.uow.run(() => seedReferenceData(services, deps), { statementTimeoutMs: 0 });
  }
  const stopBackground = config.runWorkers
    ? await startBackgroundWork(services, deps)
    : async () => undefined;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000).unref();
    try {
      await app.close(); // stops accepting, lets in-flight requests finish
      await stopBackground();
      await database.close();
    } finally {
      clearTimeout(force);
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info({ database: database.kind }, 'service ready');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('start-up failed:', error);
  }
  process.exit(1);
});
