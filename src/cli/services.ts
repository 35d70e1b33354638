import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createServices, type Services } from '../modules/index.ts';
import type { Config } from '../platform/config.ts';
import { openDatabase } from '../platform/db/database.ts';
import { migrateToLatest } from '../platform/db/migrate.ts';
import { transactional } from '../platform/db/unit-of-work.ts';
import { TokenService } from '../platform/security/tokens.ts';

/**
 * A command's services on the database the service uses (DATABASE_URL, or the embedded one under
 * DATA_DIR), migrated first; `work` runs with them and the database is closed after.
 */
export async function withServices<T>(config: Config, work: (services: Services) => Promise<T>): Promise<T> {
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: path.join(config.dataDir, 'pgdata'),
  });
  try {
    await migrateToLatest(database.db);
    const services = createServices({
      config,
      database,
      ...transactional(database.db),
      // Nothing is signed by a command; the services merely need a token service to be built.
      tokens: new TokenService(randomBytes(32).toString('hex')),
      now: () => new Date(),
    });
    return await work(services);
  } finally {
    await database.close();
  }
}
