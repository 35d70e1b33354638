import { randomBytes } from 'node:crypto';
import type { Tier } from '../../src/platform/security/tokens.ts';
import type { UserRow } from '../../src/modules/accounts/tables.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type TestApp } from './app.ts';

export interface TestUser {
  user: UserRow;
  email: string;
  password: string;
  /** A valid access token for this user. */
  token: string;
}

let counter = 0;

/** Inserts a real user through the accounts service and signs an access token for them. */
export async function createUser(
  ctx: TestApp,
  options: {
    tier?: Tier;
    admin?: boolean;
    email?: string;
    password?: string;
    name?: string;
    profile?: Partial<{
      household_size: number;
      dietary_restrictions: string[];
      allergies: string[];
      health_goals: string[];
      cooking_skill: string;
    }>;
  } = {},
): Promise<TestUser> {
  counter += 1;
  const email = options.admin
    ? ADMIN_EMAIL
    : (options.email ?? `user${counter}-${randomBytes(3).toString('hex')}@example.test`);
  const password = options.admin ? ADMIN_PASSWORD : (options.password ?? 'correct horse battery');
  // The admin is the account the service created at start from ADMIN_EMAILS (nobody registers it).
  const admin = options.admin ? await ctx.services.accounts.findByEmail(ADMIN_EMAIL) : undefined;
  if (options.admin && !admin) throw new Error('the test app did not create its ADMIN_EMAILS account');
  let user =
    admin ??
    (await ctx.services.accounts.register({
      email,
      password,
      name: options.name ?? `User ${counter}`,
    }));
  if (options.tier && options.tier !== 'free') await ctx.services.accounts.setTier(user.id, options.tier);
  if (options.profile) user = await ctx.services.accounts.updateProfile(user.id, options.profile);
  if (options.tier) user = { ...user, tier: options.tier };
  const token = await ctx.deps.tokens.signAccess({
    id: user.id,
    email: user.email,
    tier: user.tier,
    isAdmin: Boolean(options.admin),
  });
  return { user, email, password, token };
}
