import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '../../platform/http/auth.ts';
import type { LimitKeys } from '../../platform/http/rate-limit.ts';
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS } from '../../platform/security/tokens.ts';
import { presentUser } from './presenter.ts';
import {
  LoginBody,
  OnboardingBody,
  RegisterBody,
  TokenResponse,
  UpdateMeBody,
  UserSchema,
} from './schemas.ts';
import type { AccountsService, IssuedTokens } from './service.ts';
import type { UserRow } from './tables.ts';

export interface AccountsRouteOptions {
  accounts: AccountsService;
  cookieSecure: boolean;
  /** Stricter limit for login, registration and refresh. */
  authRateLimit: { max: number; timeWindow: string };
  limitKeys: LimitKeys;
}

const REFRESH_COOKIE = 'refresh_token';
const COOKIE_PATH = '/api/auth';

export async function accountsRoutes(app: FastifyInstance, options: AccountsRouteOptions): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { accounts } = options;
  // Login and registration count per client address (login also per account, in the service);
  // refresh per login family, so users behind one NAT do not share a budget.
  const strict = { rateLimit: { ...options.authRateLimit, keyGenerator: options.limitKeys.address } };
  const perFamily = {
    rateLimit: { ...options.authRateLimit, keyGenerator: options.limitKeys.refreshFamily },
  };

  const sendTokens = (reply: FastifyReply, tokens: IssuedTokens) => {
    reply.setCookie(REFRESH_COOKIE, tokens.refreshToken, {
      httpOnly: true,
      sameSite: 'strict',
      secure: options.cookieSecure,
      path: COOKIE_PATH,
      maxAge: REFRESH_TOKEN_TTL_SECONDS,
    });
    reply.header('cache-control', 'no-store');
    return {
      access_token: tokens.accessToken,
      token_type: 'Bearer' as const,
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
    };
  };

  r.post('/api/auth/register', {
    config: { auth: 'none', ...strict },
    schema: {
      tags: ['auth'],
      summary: 'Create an account',
      body: RegisterBody,
      response: { 201: UserSchema },
    },
    handler: async (request, reply) => {
      const user = await accounts.register(request.body);
      return reply.code(201).send(presentUser(user));
    },
  });

  r.post('/api/auth/login', {
    config: { auth: 'none', ...strict },
    schema: {
      tags: ['auth'],
      summary: 'Log in; the refresh token is set as an httpOnly cookie',
      body: LoginBody,
      response: { 200: TokenResponse },
    },
    handler: async (request, reply) =>
      sendTokens(reply, await accounts.login(request.body.email, request.body.password)),
  });

  r.post('/api/auth/refresh', {
    config: { auth: 'none', ...perFamily },
    schema: {
      tags: ['auth'],
      summary: 'Rotate the refresh cookie and get a new access token',
      response: { 200: TokenResponse },
    },
    handler: async (request, reply) =>
      sendTokens(reply, await accounts.refresh(request.cookies[REFRESH_COOKIE])),
  });

  r.post('/api/auth/logout', {
    config: { auth: 'bearer' },
    schema: {
      tags: ['auth'],
      summary: 'Revoke the refresh token and clear the cookie',
      response: { 204: z.null() },
    },
    handler: async (request, reply) => {
      await accounts.logout(callerOf(request).id, request.cookies[REFRESH_COOKIE]);
      reply.clearCookie(REFRESH_COOKIE, {
        path: COOKIE_PATH,
        httpOnly: true,
        sameSite: 'strict',
        secure: options.cookieSecure,
      });
      return reply.code(204).send(null);
    },
  });

  r.post('/api/auth/onboarding', {
    config: { auth: 'bearer' },
    schema: {
      tags: ['auth'],
      summary: 'Complete the profile',
      body: OnboardingBody,
      response: { 200: UserSchema },
    },
    handler: async (request) =>
      presentUser(await accounts.completeOnboarding(callerOf(request).id, request.body)),
  });

  const AdminEmailParams = z.object({ email: z.string().trim().toLowerCase().email().max(254) });
  const AdminSchema = z.object({ email: z.string(), name: z.string(), is_admin: z.boolean() });
  const presentAdmin = (user: UserRow) => ({ email: user.email, name: user.name, is_admin: user.is_admin });

  r.get('/api/admin/admins', {
    config: { auth: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Accounts with admin rights',
      response: { 200: z.object({ items: z.array(AdminSchema) }) },
    },
    handler: async () => ({ items: (await accounts.listAdmins()).map(presentAdmin) }),
  });

  r.put('/api/admin/admins/:email', {
    config: { auth: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Grant admin rights to an existing account (404 when there is none)',
      params: AdminEmailParams,
      response: { 200: AdminSchema },
    },
    handler: async (request) => presentAdmin(await accounts.setAdmin(request.params.email, true)),
  });

  r.delete('/api/admin/admins/:email', {
    config: { auth: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Revoke admin rights (409 for one’s own; another admin or the operator CLI can)',
      params: AdminEmailParams,
      response: { 204: z.null() },
    },
    handler: async (request, reply) => {
      await accounts.setAdmin(request.params.email, false, callerOf(request).id);
      return reply.code(204).send(null);
    },
  });

  r.get('/api/me', {
    config: { auth: 'bearer' },
    schema: { tags: ['profile'], summary: 'The caller’s profile', response: { 200: UserSchema } },
    handler: async (request) => presentUser(callerOf(request).record as UserRow),
  });

  r.put('/api/me', {
    config: { auth: 'bearer' },
    schema: {
      tags: ['profile'],
      summary: 'Update the profile',
      body: UpdateMeBody,
      response: { 200: UserSchema },
    },
    handler: async (request) => presentUser(await accounts.updateProfile(callerOf(request).id, request.body)),
  });
}
