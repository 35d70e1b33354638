import { randomUUID } from 'node:crypto';
import {
  conflict,
  emailTaken,
  invalidCredentials,
  invalidRefreshToken,
  notFound,
  rateLimited,
} from '../../platform/errors.ts';
import { batchedReads } from '../../platform/db/batched-reads.ts';
import { LoginThrottle, MemoryFailureStore } from '../../platform/security/login-throttle.ts';
import type { Principal } from '../../platform/http/auth.ts';
import { ConfigError } from '../../platform/config.ts';
import { hashPassword, verifyPassword } from '../../platform/security/passwords.ts';
import { sha256Hex, type Tier, type TokenService } from '../../platform/security/tokens.ts';
import type { AccountsRepository, ProfileChanges } from './repository.ts';
import type { UserRow } from './tables.ts';

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  refreshExpiresAt: Date;
}

/** What other modules may know about a user: the profile that drives food choices, and the tier. */
export interface UserProfile {
  id: string;
  email: string;
  name: string;
  householdSize: number;
  dietaryRestrictions: string[];
  allergies: string[];
  healthGoals: string[];
  cookingSkill: string;
  tier: Tier;
}

/** How long a just-used refresh token still answers with a fresh pair (see refresh). */
export const DEFAULT_REFRESH_GRACE_SECONDS = 10;

type RefreshResult =
  { kind: 'issued'; tokens: IssuedTokens } | { kind: 'refused'; reusedFamily?: string | undefined };

export interface AdminBootstrapOutcome {
  email: string;
  outcome: 'created' | 'admin' | 'registered_by_someone_else';
}

/** A listed admin address has no account and ADMIN_PASSWORD is not set: the service must not start. */
export class AdminPasswordMissing extends ConfigError {
  constructor(email: string) {
    super(
      `Invalid configuration:\n  ADMIN_PASSWORD: required to create the admin account ${email} listed in ADMIN_EMAILS`,
    );
  }
}

export class AccountsService {
  readonly #repo: AccountsRepository;
  readonly #tokens: TokenService;
  readonly #adminEmails: ReadonlySet<string>;
  readonly #now: () => Date;
  readonly #refreshGraceSeconds: number;
  readonly #throttle: LoginThrottle;
  /** The users behind the requests that arrive together, read in one query. */
  readonly #users = batchedReads(
    async (ids: readonly string[]) => new Map((await this.#repo.findByIds(ids)).map((row) => [row.id, row])),
  );

  constructor(
    repo: AccountsRepository,
    tokens: TokenService,
    adminEmails: ReadonlySet<string>,
    now = () => new Date(),
    refreshGraceSeconds = DEFAULT_REFRESH_GRACE_SECONDS,
    throttle = new LoginThrottle(new MemoryFailureStore()),
  ) {
    this.#throttle = throttle;
    this.#repo = repo;
    this.#tokens = tokens;
    this.#adminEmails = adminEmails;
    this.#now = now;
    this.#refreshGraceSeconds = refreshGraceSeconds;
  }

  async register(input: { email: string; password: string; name: string }): Promise<UserRow> {
    // A listed admin address is the service's to create (bootstrapAdmins): answered like any taken
    // email, so registering it first can never claim it.
    if (this.isAdminEmail(input.email)) throw emailTaken();
    const passwordHash = await hashPassword(input.password);
    const user = await this.#repo.insert({ email: input.email, passwordHash, name: input.name });
    if (!user) throw emailTaken();
    return user;
  }

  /**
   * Wrong passwords make the next attempt for that email wait longer and longer (LoginThrottle),
   * from whatever address they come; an unknown email is throttled the same way, so the answers
   * never tell which accounts exist.
   */
  async login(email: string, password: string): Promise<IssuedTokens> {
    const nowMs = this.#now().getTime();
    const wait = await this.#throttle.waitSeconds(email, nowMs);
    if (wait > 0) throw rateLimited(wait);
    const user = await this.#repo.findByEmail(email);
    const ok = await verifyPassword(user?.password_hash, password);
    if (!user || !ok) {
      await this.#throttle.failed(email, nowMs);
      throw invalidCredentials();
    }
    await this.#throttle.succeeded(email);
    return this.#issue(user, randomUUID());
  }

  /**
   * Rotation with reuse detection, in one transaction: the old token is consumed and its successor
   * stored together, so a failure in between cannot leave the client without a valid token.
   * A token presented again within the grace period (two tabs refreshing at once, a retried
   * request) gets a fresh pair of the same login instead of revoking it. Presented later, it
   * leaked: the whole login family is revoked.
   */
  async refresh(rawToken: string | undefined): Promise<IssuedTokens> {
    if (!rawToken) throw invalidRefreshToken('The refresh_token cookie is missing.');
    const claims = await this.#tokens.verifyRefresh(rawToken);
    if (!claims) throw invalidRefreshToken();
    const now = this.#now();
    const graceStart = now.getTime() - this.#refreshGraceSeconds * 1000;
    const result = await this.#repo.transaction(async (tx): Promise<RefreshResult> => {
      const outcome = await tx.consumeRefreshToken(sha256Hex(rawToken), now);
      let userId: string;
      let familyId: string;
      if (outcome.state === 'active') {
        ({ userId, familyId } = outcome.row);
      } else if (
        outcome.state === 'used' &&
        outcome.usedAt &&
        outcome.usedAt.getTime() >= graceStart &&
        outcome.userId &&
        outcome.familyId
      ) {
        ({ userId, familyId } = { userId: outcome.userId, familyId: outcome.familyId });
      } else {
        return { kind: 'refused', reusedFamily: outcome.state === 'used' ? outcome.familyId : undefined };
      }
      const user = await tx.findById(userId);
      if (!user) return { kind: 'refused' };
      return { kind: 'issued', tokens: await this.#issue(user, familyId, tx) };
    });
    if (result.kind === 'issued') return result.tokens;
    // Revoked outside the transaction above, which answered without writing anything.
    if (result.reusedFamily) {
      await this.#repo.revokeFamily(result.reusedFamily, now);
      throw invalidRefreshToken('The refresh token was already used; please log in again.');
    }
    throw invalidRefreshToken();
  }

  /** Revokes the login behind the refresh cookie, when it belongs to the caller. */
  async logout(userId: string, rawToken: string | undefined): Promise<void> {
    if (!rawToken) return;
    const stored = await this.#repo.findRefreshTokenByHash(sha256Hex(rawToken));
    if (stored && stored.userId === userId) await this.#repo.revokeFamily(stored.familyId, this.#now());
  }

  async updateProfile(userId: string, changes: ProfileChanges): Promise<UserRow> {
    const user = await this.#repo.updateProfile(userId, changes);
    if (!user) throw notFound('User');
    return user;
  }

  completeOnboarding(
    userId: string,
    changes: Omit<ProfileChanges, 'onboarded_at' | 'name'>,
  ): Promise<UserRow> {
    return this.updateProfile(userId, { ...changes, onboarded_at: this.#now() });
  }

  async getProfile(userId: string): Promise<UserProfile> {
    const user = await this.#repo.findById(userId);
    if (!user) throw notFound('User');
    return toProfile(user);
  }

  async setTier(userId: string, tier: Tier): Promise<void> {
    await this.#repo.setTier(userId, tier);
  }

  isAdminEmail(email: string): boolean {
    return this.#adminEmails.has(email.toLowerCase());
  }

  /**
   * Start-up: every ADMIN_EMAILS address without an account gets one, created by the service as an
   * admin with `password`. An address someone registered before that gets no rights; only a grant
   * (CLI or an admin) gives them. Answers what happened to each address, for the start-up log.
   */
  async bootstrapAdmins(password: string | undefined): Promise<AdminBootstrapOutcome[]> {
    const outcomes: AdminBootstrapOutcome[] = [];
    for (const email of this.#adminEmails) {
      const existing = await this.#repo.findByEmail(email);
      if (existing) {
        outcomes.push({ email, outcome: existing.is_admin ? 'admin' : 'registered_by_someone_else' });
        continue;
      }
      if (!password) throw new AdminPasswordMissing(email);
      const created = await this.#repo.insertAdmin({
        email,
        passwordHash: await hashPassword(password),
        name: 'Administrator',
      });
      // Lost a race with another instance creating it: that instance created it as an admin too.
      outcomes.push({ email, outcome: created ? 'created' : 'admin' });
    }
    return outcomes;
  }

  /** Grants or revokes admin rights (operator CLI, or an admin through the API). */
  async setAdmin(email: string, isAdmin: boolean, actorId?: string): Promise<UserRow> {
    const normalized = email.trim().toLowerCase();
    const target = await this.#repo.findByEmail(normalized);
    if (!target) throw notFound('User');
    if (!isAdmin && actorId && target.id === actorId)
      throw conflict('Admins cannot revoke their own rights; another admin or the operator can.');
    const updated = await this.#repo.setAdmin(normalized, isAdmin);
    if (!updated) throw notFound('User');
    return updated;
  }

  listAdmins(): Promise<UserRow[]> {
    return this.#repo.listAdmins();
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.#repo.findByEmail(email.trim().toLowerCase());
  }

  /** One indexed read per authenticated request; tier and admin rights come from here. */
  loadPrincipal = async (userId: string): Promise<Principal | undefined> => {
    if (!UUID_RE.test(userId)) return undefined;
    const user = await this.#users(userId);
    if (!user) return undefined;
    return {
      id: user.id,
      email: user.email,
      tier: user.tier,
      isAdmin: user.is_admin,
      record: user,
    };
  };

  async #issue(user: UserRow, familyId: string, repo = this.#repo): Promise<IssuedTokens> {
    const accessToken = await this.#tokens.signAccess({
      id: user.id,
      email: user.email,
      tier: user.tier,
      isAdmin: user.is_admin,
    });
    const refresh = await this.#tokens.signRefresh(user.id, familyId);
    await repo.insertRefreshToken({
      id: refresh.jti,
      userId: user.id,
      familyId,
      tokenHash: sha256Hex(refresh.token),
      expiresAt: refresh.expiresAt,
    });
    return { accessToken, refreshToken: refresh.token, refreshExpiresAt: refresh.expiresAt };
  }
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function toProfile(user: UserRow): UserProfile {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    householdSize: user.household_size,
    dietaryRestrictions: user.dietary_restrictions,
    allergies: user.allergies,
    healthGoals: user.health_goals,
    cookingSkill: user.cooking_skill,
    tier: user.tier,
  };
}
