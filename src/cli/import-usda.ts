import path from 'node:path';
import { IngredientsRepository } from '../modules/ingredients/repository.ts';
import { IngredientsService } from '../modules/ingredients/service.ts';
import { importSrLegacy } from '../modules/ingredients/usda/importer.ts';
import { ConfigError, parseConfig } from '../platform/config.ts';
import { openDatabase } from '../platform/db/database.ts';
import { migrateToLatest } from '../platform/db/migrate.ts';

/**
 * npm run import:usda -- <dir> [--all-groups]
 * Loads USDA SR Legacy foods as additional ingredients into the database the service uses
 * (DATABASE_URL, or the embedded database under DATA_DIR). Re-running adds nothing twice.
 */
async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const dir = args.find((a) => !a.startsWith('--'));
  if (!dir) {
    console.error(
      'usage: npm run import:usda -- <folder with ABBREV.txt, FOOD_DES.txt, FD_GROUP.txt> [--all-groups]',
    );
    return 2;
  }
  const config = parseConfig();
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: path.join(config.dataDir, 'pgdata'),
  });
  try {
    await migrateToLatest(database.db);
    const service = new IngredientsService(new IngredientsRepository(database.db));
    const report = await importSrLegacy(service, dir, { allGroups: args.includes('--all-groups') });
    console.log(`foods read:                   ${report.foodsRead}`);
    console.log(`left out (group, --all-groups to keep): ${report.skippedGroup}`);
    console.log(`left out (branded):           ${report.skippedBranded}`);
    console.log(`left out (no energy value):   ${report.skippedNoEnergy}`);
    console.log(`left out (no description):    ${report.skippedNoDescription}`);
    console.log(`portion weights (WEIGHT.txt): ${report.withPortionWeights ? 'used' : 'absent'}`);
    console.log(`skipped, NDB already present: ${report.skippedExistingNdb}`);
    console.log(`skipped, name already present: ${report.skippedExistingName}`);
    console.log(`imported:                     ${report.inserted}`);
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError || error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
