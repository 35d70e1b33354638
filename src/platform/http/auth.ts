import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, tierRequired, unauthorized } from '../errors.ts';
import type { Tier, TokenService } from '../security/tokens.ts';

/**
 * How a route declares who may call it: `config: { auth: 'bearer', tier: 'pro' }`.
 * - none: no credentials looked at; optional: a valid token is used, an invalid one is a 401;
 * - bearer: a valid access token for an existing user; admin: bearer plus an admin user.
 * Tier and admin rights come from the stored user (loaded per request), never from the token.
 */
export type AuthMode = 'none' | 'optional' | 'bearer' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
    tier?: Exclude<Tier, 'free'>;
    /** Per-route rate limit override (see rate-limit.ts). */
    rateLimitMax?: number;
  }
  interface FastifyRequest {
    principal: Principal | undefined;
  }
}

export interface Principal {
  id: string;
  email: string;
  tier: Tier;
  isAdmin: boolean;
  /** The stored user as the accounts module loaded it (one query per request serves both). */
  record: unknown;
}

/** Loads the stored user behind a token subject; undefined when it no longer exists. */
export type PrincipalLoader = (userId: string) => Promise<Principal | undefined>;

const TIER_RANK: Record<Tier, number> = { free: 0, pro: 1, family: 2 };

export function tierAllows(actual: Tier, required: Tier): boolean {
  return TIER_RANK[actual] >= TIER_RANK[required];
}

export function registerAuth(
  app: FastifyInstance,
  tokens: TokenService,
  loadPrincipal: PrincipalLoader,
): void {
  app.decorateRequest('principal', undefined);
  app.addHook('onRequest', async (request) => {
    // Every route declares its mode (app.ts refuses to start otherwise); only the not-found
    // handler has none.
    const mode = request.routeOptions.config.auth ?? (request.is404 ? 'none' : 'bearer');
    if (mode === 'none') return;
    const header = request.headers.authorization;
    if (!header) {
      if (mode === 'optional') return;
      throw unauthorized('The Authorization header with a Bearer token is required.');
    }
    request.principal = await authenticate(header, tokens, loadPrincipal);
    if (mode === 'admin' && !request.principal.isAdmin) throw forbidden('Administrator rights are required.');
    // Admins administer whatever tier they are on (e.g. editing catalog recipes).
    const tier = request.routeOptions.config.tier;
    if (tier && !request.principal.isAdmin && !tierAllows(request.principal.tier, tier))
      throw tierRequired(tier);
  });
}

async function authenticate(header: string, tokens: TokenService, load: PrincipalLoader): Promise<Principal> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw unauthorized('The Authorization header must be "Bearer <token>".');
  const claims = await tokens.verifyAccess(match[1]);
  if (!claims) throw unauthorized('The access token is invalid or expired.');
  const principal = await load(claims.sub);
  if (!principal) throw unauthorized('The access token no longer matches an account.');
  return principal;
}

/** The caller of a bearer/admin route (the hook guarantees it is there). */
export function callerOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}
