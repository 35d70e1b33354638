import path from 'node:path';
import { ConfigError, parseConfig } from '../platform/config.ts';
import { openDatabase } from '../platform/db/database.ts';
import { transactional } from '../platform/db/unit-of-work.ts';
import { migrateToLatest } from '../platform/db/migrate.ts';
import { resolveJwtSecret } from '../platform/security/secrets.ts';
import { TokenService } from '../platform/security/tokens.ts';
import { createServices, seedReferenceData } from '../modules/index.ts';

/**
 * npm run db:seed
 * Runs the migrations, then loads the reference data (ingredients, then the recipe catalog) into
 * the database the service uses: DATABASE_URL, or the embedded database under DATA_DIR. The same
 * idempotent seeding the service runs at start (SEED_CATALOG), for deployments that turn it off.
 */
async function main(): Promise<void> {
  const config = parseConfig();
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: path.join(config.dataDir, 'pgdata'),
  });
  try {
    await migrateToLatest(database.db);
    const deps = {
      config,
      database,
      ...transactional(database.db),
      tokens: new TokenService(resolveJwtSecret(config.jwtSecret, config.dataDir)),
      now: () => new Date(),
    };
    const services = createServices(deps);
    const started = Date.now();
    await seedReferenceData(services, deps);
    const ingredients = (await services.ingredients.all()).length;
    const recipes = await services.recipes.catalogSize();
    console.log(
      `reference data loaded into ${database.kind}: ${ingredients} ingredients, ${recipes} catalog recipes ` +
        `(${Date.now() - started} ms)`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof Error ? error.message : error);
  process.exit(1);
});
