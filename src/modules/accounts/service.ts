import { randomUUID } from 'node:crypto';
import { emailTaken, invalidCredentials, invalidRefreshToken, notFound } from '../../platform/errors.ts';
import type { Principal } from '../../platform/http/auth.ts';
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

export class AccountsService {
  readonly #repo: AccountsRepository;
  readonly #tokens: TokenService;
  readonly #adminEmails: ReadonlySet<string>;
  readonly #now: () => Date;

  constructor(
    repo: AccountsRepository,
    tokens: TokenService,
    adminEmails: ReadonlySet<string>,
    now = () => new Date(),
  ) {
    this.#repo = repo;
    this.#tokens = tokens;
    this.#adminEmails = adminEmails;
    this.#now = now;
  }

  async register(input: { email: string; password: string; name: string }): Promise<UserRow> {
    const passwordHash = await hashPassword(input.password);
    const user = await this.#repo.insert({ email: input.email, passwordHash, name: input.name });
    if (!user) throw emailTaken();
    return user;
  }

  async login(email: string, password: string): Promise<IssuedTokens> {
    const user = await this.#repo.findByEmail(email);
    const ok = await verifyPassword(user?.password_hash, password);
    if (!user || !ok) throw invalidCredentials();
    return this.#issue(user, randomUUID());
  }

  /**
   * Rotation with reuse detection: each refresh token works once. Presenting one that was already
   * used means it leaked (or a client raced itself); the whole login family is revoked.
   */
  async refresh(rawToken: string | undefined): Promise<IssuedTokens> {
    if (!rawToken) throw invalidRefreshToken('The refresh_token cookie is missing.');
    const claims = await this.#tokens.verifyRefresh(rawToken);
    if (!claims) throw invalidRefreshToken();
    const now = this.#now();
    const outcome = await this.#repo.consumeRefreshToken(sha256Hex(rawToken), now);
    if (outcome.state !== 'active') {
      if (outcome.state === 'used' && outcome.familyId) await this.#repo.revokeFamily(outcome.familyId, now);
      throw invalidRefreshToken(
        outcome.state === 'used' ? 'The refresh token was already used; please log in again.' : undefined,
      );
    }
    const user = await this.#repo.findById(outcome.row.userId);
    if (!user) throw invalidRefreshToken();
    return this.#issue(user, outcome.row.familyId);
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

  /** One indexed read per authenticated request; tier and admin rights come from here. */
  loadPrincipal = async (userId: string): Promise<Principal | undefined> => {
    if (!UUID_RE.test(userId)) return undefined;
    const user = await this.#repo.findById(userId);
    if (!user) return undefined;
    return {
      id: user.id,
      email: user.email,
      tier: user.tier,
      isAdmin: this.isAdminEmail(user.email),
      record: user,
    };
  };

  async #issue(user: UserRow, familyId: string): Promise<IssuedTokens> {
    const accessToken = await this.#tokens.signAccess({
      id: user.id,
      email: user.email,
      tier: user.tier,
      isAdmin: this.isAdminEmail(user.email),
    });
    const refresh = await this.#tokens.signRefresh(user.id, familyId);
    await this.#repo.insertRefreshToken({
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
