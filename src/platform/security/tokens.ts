import { createHash, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;

export type Tier = 'free' | 'pro' | 'family';

export interface AccessClaims {
  sub: string;
  email: string;
  tier: Tier;
  is_admin: boolean;
  jti: string;
  iat: number;
  exp: number;
  token_type: 'access';
}

export interface RefreshClaims {
  sub: string;
  jti: string;
  /** Login family: every token rotated from one login shares it, for reuse detection. */
  fid: string;
  exp: number;
  token_type: 'refresh';
}

/** HS256 only: a token signed otherwise (including alg "none") never verifies. */
const ALG = 'HS256';

/**
 * Verified access tokens, keyed by the whole token string (signature included), so a hit can only
 * come from a token this service already verified. jose's HMAC check goes through WebCrypto and
 * costs ~140 µs; clients reuse one token for up to 15 minutes, so most requests hit. Expiry is
 * re-checked on every hit.
 */
class VerifiedTokenCache {
  readonly #entries = new Map<string, AccessClaims>();
  readonly #max: number;
  constructor(max: number) {
    this.#max = max;
  }
  get(token: string, nowSeconds: number): AccessClaims | undefined {
    const claims = this.#entries.get(token);
    if (!claims) return undefined;
    if (claims.exp <= nowSeconds) {
      this.#entries.delete(token);
      return undefined;
    }
    return claims;
  }
  set(token: string, claims: AccessClaims): void {
    if (this.#entries.size >= this.#max) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(token, claims);
  }
}

export class TokenService {
  readonly #key: Uint8Array;
  readonly #verified = new VerifiedTokenCache(10_000);

  constructor(secret: string) {
    this.#key = new TextEncoder().encode(secret);
  }

  async signAccess(user: { id: string; email: string; tier: Tier; isAdmin: boolean }): Promise<string> {
    return new SignJWT({ email: user.email, tier: user.tier, is_admin: user.isAdmin, token_type: 'access' })
      .setProtectedHeader({ alg: ALG, typ: 'JWT' })
      .setSubject(user.id)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
      .sign(this.#key);
  }

  async signRefresh(
    userId: string,
    familyId: string,
  ): Promise<{ token: string; jti: string; expiresAt: Date }> {
    const jti = randomUUID();
    const expiresAt = new Date(Date.now() + REFRESH_TOKEN_TTL_SECONDS * 1000);
    const token = await new SignJWT({ fid: familyId, token_type: 'refresh' })
      .setProtectedHeader({ alg: ALG, typ: 'JWT' })
      .setSubject(userId)
      .setJti(jti)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.#key);
    return { token, jti, expiresAt };
  }

  /** Claims of a valid access token, or undefined for anything else (expired, tampered, wrong type). */
  async verifyAccess(token: string): Promise<AccessClaims | undefined> {
    const cached = this.#verified.get(token, Math.floor(Date.now() / 1000));
    if (cached) return cached;
    const payload = await this.#verify(token);
    if (!payload || payload.token_type !== 'access' || typeof payload.sub !== 'string') return undefined;
    const claims = payload as unknown as AccessClaims;
    this.#verified.set(token, claims);
    return claims;
  }

  async verifyRefresh(token: string): Promise<RefreshClaims | undefined> {
    const payload = await this.#verify(token);
    if (!payload || payload.token_type !== 'refresh' || typeof payload.fid !== 'string') return undefined;
    return payload as unknown as RefreshClaims;
  }

  async #verify(token: string) {
    try {
      const { payload } = await jwtVerify(token, this.#key, { algorithms: [ALG] });
      return payload;
    } catch (error) {
      if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return undefined;
      throw error;
    }
  }
}

/** Refresh tokens are stored only as this digest (spec, Authentication §3). */
export const sha256Hex = (value: string): string => createHash('sha256').update(value).digest('hex');
