import path from 'node:path';
import { ConfigError, parseConfig } from '../platform/config.ts';
import { openDatabase } from '../platform/db/database.ts';
import { migrateToLatest } from '../platform/db/migrate.ts';
import { AccountsRepository } from '../modules/accounts/repository.ts';
import { AccountsService } from '../modules/accounts/service.ts';
import { TokenService } from '../platform/security/tokens.ts';

/**
 * npm run admin -- grant <email> | revoke <email> | list
 * The operator's way to give or take admin rights, on the database the service uses (DATABASE_URL,
 * or the embedded database under DATA_DIR). Needed when an ADMIN_EMAILS address was registered by
 * someone before the service could create it: such an account holds no rights until granted here.
 */
const USAGE = 'usage: npm run admin -- grant <email> | revoke <email> | list';

async function main(): Promise<void> {
  const [command, email] = process.argv.slice(2);
  if (!command || !['grant', 'revoke', 'list'].includes(command) || (command !== 'list' && !email)) {
    console.error(USAGE);
    process.exit(2);
  }
  const config = parseConfig();
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: path.join(config.dataDir, 'pgdata'),
  });
  try {
    await migrateToLatest(database.db);
    // No tokens are signed here; the key only satisfies the service's constructor.
    const accounts = new AccountsService(
      new AccountsRepository(database.db),
      new TokenService('unused-by-this-command-unused-by-this-command'),
      config.adminEmails,
    );
    if (command === 'list') {
      for (const admin of await accounts.listAdmins()) console.log(admin.email);
      return;
    }
    const user = await accounts.setAdmin(email!, command === 'grant');
    console.log(`${user.email}: ${user.is_admin ? 'admin' : 'not an admin'}`);
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  const message = error instanceof ConfigError || error instanceof Error ? error.message : String(error);
  console.error(message.includes('not found') ? `no account with that email (${message})` : message);
  process.exit(1);
});
