import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { Role } from '../../common/domain/roles';
import type { ApiKeyScope } from '../../common/domain/api-keys';
import { API_KEY_SCOPE_REFUSED } from '../../common/contracts/api-keys';
import { errorResponse } from '../../common/contracts/errors';
import type { Database, Db } from '../db/client';
import { columnIndexes, runTextStatement, type TextRow, textStatement } from '../db/text-rows';
import type { Actor } from '../policies/actor';
import { apiKeys, labSettings, revokedTokens, users } from '../db/schema';
import { hashApiKey, looksLikeApiKey } from './api-key-secret';
import { readOrCreatePrivateFile } from '../storage/private-files';
import { mustSetUpTwoFactor } from '../policies/users';
import { TWO_FACTOR_SETUP_REQUIRED } from '../../common/contracts/two-factor';
import { AppError, forbidden, unauthorized } from './errors';
import { signJwt, verifyJwt } from './jwt';

export const TOKEN_LIFETIME_SECONDS = 12 * 60 * 60;

/** The signed-in user of a request: always an active account (the hook refuses any other). */
export type AuthUser = Actor & {
  email: string;
  firstName: string | null;
  lastName: string | null;
};

/** The user of a request as the auth hook read it, with the state of their two-factor sign-in. */
export type SessionUser = AuthUser & {
  /** Two-factor sign-in is on for this account. */
  twoFactorEnabled: boolean;
  /** The lab requires two-factor sign-in of this account and it is not set up yet. */
  twoFactorSetupRequired: boolean;
};

/** The token of a signed-in request: its id (for logout) and when it would expire. */
export type SessionToken = { jti: string; exp: number };

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
    session: SessionToken | null;
    /** The API key a request was made with (docs/product/partners.md); null for a session token. */
    apiKey: { id: number; scopes: readonly string[] } | null;
    /**
     * The signed-in user's `samples_version` as the session lookup read it: the own list's answer
     * may be reused while it stands (docs/decisions/0035-own-list-reuse.md). Null for API keys.
     */
    samplesVersion: string | null;
  }
  interface FastifyContextConfig {
    /** A route open to visitors. Every other route requires a valid token (guards fail closed). */
    public?: boolean;
    /**
     * The one API-key scope that lets a key make this call. A route without it answers every key
     * 403 (fail closed): only the calls that name a scope are open to keys.
     */
    apiKeyScope?: ApiKeyScope;
  }
}

export type TokenService = {
  /** `sessionVersion`: the user's current one; bumping it in the database ends every older token. */
  sign(user: { id: number; role: Role; sessionVersion?: number }, lifetimeSeconds?: number): Promise<string>;
  verify(token: string): Promise<{ userId: number; sv: number; jti: string; exp: number } | null>;
};

/** The shortest signing secret accepted, in bytes (HS256 wants at least its 256-bit output). */
export const MIN_JWT_SECRET_BYTES = 32;

/** A start-up refusal with a message for the operator (printed by main, exit code 1). */
export class StartupError extends Error {}

function checkedSecret(secret: string, where: string): string {
  if (Buffer.byteLength(secret, 'utf8') < MIN_JWT_SECRET_BYTES)
    throw new StartupError(
      `The JWT secret in ${where} is shorter than ${MIN_JWT_SECRET_BYTES} bytes: refusing to start. ` +
        'Set a longer JWT_SECRET, or remove the file so that a new one is generated (every session ends).',
    );
  return secret;
}

/**
 * JWT_SECRET, else a secret generated once and kept in DATA_DIR so tokens survive a restart. The
 * generated file is written atomically by readOrCreatePrivateFile (temporary file, fsync, link into
 * place, fsync of the folder) with mode 0600: a crash never leaves a half-written secret, and two
 * instances starting together end up with the same one. A secret shorter than 32 bytes, given or read, stops start-up.
 */
export function resolveJwtSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return checkedSecret(configured, 'JWT_SECRET');
  const file = join(dataDir, 'jwt-secret');
  const secret = readOrCreatePrivateFile(file, () => randomBytes(48).toString('base64url'));
  return checkedSecret(secret.trim(), file);
}

export function createTokenService(secret: string): TokenService {
  const key = Buffer.from(secret, 'utf8');
  return {
    async sign(user, lifetimeSeconds = TOKEN_LIFETIME_SECONDS) {
      const now = Math.floor(Date.now() / 1000);
      return signJwt(key, {
        role: user.role,
        sub: String(user.id),
        sv: user.sessionVersion ?? 0,
        jti: randomBytes(16).toString('base64url'),
        iat: now,
        exp: now + lifetimeSeconds,
      });
    },
    async verify(token) {
      const claims = verifyJwt(key, token);
      if (!claims) return null;
      const userId = Number(claims.sub);
      const sv = typeof claims.sv === 'number' ? claims.sv : 0;
      const jti = typeof claims.jti === 'string' ? claims.jti : '';
      return Number.isInteger(userId) && userId > 0 ? { userId, sv, jti, exp: claims.exp } : null;
    },
  };
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/** The user columns both ways of signing in read: a session token and an API key. */
const USER_COLUMNS = {
  id: users.id,
  email: users.email,
  role: users.role,
  firstName: users.firstName,
  lastName: users.lastName,
  isActive: users.isActive,
  twoFactorEnabled: sql<boolean>`(${users.totpSecret} is not null)`,
  labRequires2fa: sql<boolean>`coalesce((select ${labSettings.require2faForStaff} from ${labSettings} order by ${labSettings.id} limit 1), false)`,
};

type UserColumns = Pick<SessionUser, 'id' | 'email' | 'role' | 'firstName' | 'lastName' | 'isActive'> & {
  twoFactorEnabled: boolean;
  labRequires2fa: boolean;
};

/** The request's user, from the columns above: the role and isActive as the database holds them now. */
function sessionUserOf(row: UserColumns): SessionUser {
  const actor = { id: row.id, role: row.role, isActive: row.isActive };
  const twoFactorEnabled = row.twoFactorEnabled === true;
  return {
    id: row.id,
    role: row.role,
    isActive: row.isActive,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    twoFactorEnabled,
    twoFactorSetupRequired: mustSetUpTwoFactor(actor, twoFactorEnabled, row.labRequires2fa === true),
  };
}

/** The session lookup's columns: the user's, whether the account's sessions were ended, and the token's. */
const SESSION_COLUMNS = {
  ...USER_COLUMNS,
  sessionVersion: users.sessionVersion,
  // Read here, where every signed-in request already reads its user, so reusing the own list costs no query.
  samplesVersion: users.samplesVersion,
  // A token ended by logout (docs/product/accounts-and-sessions.md).
  revoked: sql<boolean>`exists (select 1 from ${revokedTokens} where ${revokedTokens.jti} = ${sql.placeholder('jti')})`,
};
/** Where each of them sits in the lookup's text row (drizzle selects them in this order). */
const AT = columnIndexes(SESSION_COLUMNS);

/** The session lookup's text row as the user's columns. */
function sessionRowOf(
  row: TextRow,
): UserColumns & { sessionVersion: number; samplesVersion: string; revoked: boolean } {
  return {
    id: Number(row[AT.id]),
    email: row[AT.email] ?? '',
    role: row[AT.role] as Role,
    firstName: row[AT.firstName] ?? null,
    lastName: row[AT.lastName] ?? null,
    isActive: row[AT.isActive] === 't',
    twoFactorEnabled: row[AT.twoFactorEnabled] === 't',
    labRequires2fa: row[AT.labRequires2fa] === 't',
    sessionVersion: Number(row[AT.sessionVersion]),
    samplesVersion: row[AT.samplesVersion] ?? '',
    revoked: row[AT.revoked] === 't',
  };
}

/**
 * Authenticates every request that carries a token, reading the user's current role and isActive
 * from the database (never the role remembered in the token), and refuses any non-public route
 * without a valid session.
 */
export function registerAuth(
  app: FastifyInstance,
  deps: {
    db: Db;
    /** Runs the session lookup by name as text rows (`Database.queryTextRows`). */
    database: Pick<Database, 'queryTextRows'>;
    tokens: TokenService;
    /** Counts a key's request; answers how long to wait when its limit is used up (null: no limit). */
    apiKeyLimit?: ((request: FastifyRequest) => Promise<number | null>) | null;
  },
) {
  app.decorateRequest('user', null);
  app.decorateRequest('session', null);
  app.decorateRequest('apiKey', null);
  app.decorateRequest('samplesVersion', null);
  documentApiKeyScopes(app);
  // Every authenticated request reads its user: one named statement, planned once per connection and
  // read as text rows (no row description, no driver or drizzle row mapping: docs/benchmarks.md, "Load").
  const sessionUserStatement = textStatement(
    'auth_session_user',
    deps.db
      .select(SESSION_COLUMNS)
      .from(users)
      .where(eq(users.id, sql.placeholder('id')))
      .limit(1),
  );
  const findSessionUser = async (id: number, jti: string) => {
    const [row] = await runTextStatement(deps.database, sessionUserStatement, { id, jti });
    return row ? sessionRowOf(row) : undefined;
  };
  // A request made with an API key reads the key and its owner in one statement.
  const findKeyUser = deps.db
    .select({
      keyId: apiKeys.id,
      scopes: apiKeys.scopes,
      revokedAt: apiKeys.revokedAt,
      lastUsedFresh: sql<boolean>`coalesce(${apiKeys.lastUsedAt} > now() - interval '1 minute', false)`,
      ...USER_COLUMNS,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.keyHash, sql.placeholder('hash')))
    .limit(1)
    .prepare('auth_api_key_user');
  /** A key acts as its owner, with the owner's current role and isActive; a revoked key is nothing. */
  const authenticateKey = async (request: FastifyRequest, key: string) => {
    const [row] = await findKeyUser.execute({ hash: hashApiKey(key) });
    if (!row || row.revokedAt || !row.isActive) return;
    // "Last used" to the minute: one small write per key and minute at most.
    if (!row.lastUsedFresh)
      await deps.db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, row.keyId));
    request.apiKey = { id: row.keyId, scopes: row.scopes };
    request.user = sessionUserOf(row);
  };
  /** Reads the user of a request that carries a token into request.user (left null when it is not valid). */
  const authenticate = async (request: FastifyRequest, token: string) => {
    if (looksLikeApiKey(token)) return authenticateKey(request, token);
    const claims = await deps.tokens.verify(token);
    if (claims) {
      const row = await findSessionUser(claims.userId, claims.jti);
      // A deactivated account, a token older than the last "sign out everywhere" (or password
      // change), or a logged-out token: not signed in.
      if (row?.isActive && row.sessionVersion === claims.sv && !row.revoked) {
        request.session = { jti: claims.jti, exp: claims.exp };
        request.user = sessionUserOf(row);
        request.samplesVersion = row.samplesVersion;
      }
    }
  };
  /** Why the route refuses this request (no valid session, or two-factor set-up first), else null. */
  const refusal = (request: FastifyRequest, token: string | null) => {
    // routeOptions is a getter that builds its object on every read: read it once.
    const route = request.routeOptions;
    const url = route.url ?? '';
    const isPublic =
      route.config?.public === true || !/^\/(api|uploads)(\/|$)/i.test(url) || url.startsWith('/api/docs');
    if (isPublic) return null;
    if (!request.user) return unauthorized(token ? 'Invalid or expired token' : 'Authentication required');
    // Staff and admins the lab requires two factors of reach only what sets them up, until they have.
    if (request.user.twoFactorSetupRequired && !TWO_FACTOR_SETUP_PATHS.has(url))
      return forbidden(TWO_FACTOR_SETUP_REQUIRED);
    if (request.apiKey) {
      const scope = route.config?.apiKeyScope;
      if (!scope || !request.apiKey.scopes.includes(scope)) return forbidden(API_KEY_SCOPE_REFUSED);
    }
    return null;
  };
  /** After a key's call passed the guard: its per-key limit (429 with Retry-After when used up). */
  const limitKey = async (request: FastifyRequest): Promise<AppError | null> => {
    if (!request.apiKey || !deps.apiKeyLimit) return null;
    const wait = await deps.apiKeyLimit(request);
    if (wait === null) return null;
    return new AppError(429, 'Too many requests with this API key: try again later', undefined, {
      'retry-after': String(wait),
    });
  };
  // Callback-style hooks: a visitor's request (no token) passes both without a promise or a
  // microtask, which the hot public calls feel (docs/benchmarks.md, "Report verification").
  app.addHook('onRequest', (request, _reply, done) => {
    const token = bearerToken(request);
    if (!token) {
      done(refusal(request, null) ?? undefined);
      return;
    }
    authenticate(request, token)
      .then(async () => refusal(request, token) ?? (await limitKey(request)))
      .then(
        (refused) => done(refused ?? undefined),
        (err: Error) => done(err),
      );
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    applyNoStore(request, reply);
    done(null, payload);
  });
}

/**
 * The OpenAPI document names the scope of every call a key may make (`x-api-key-scope`, and the
 * apiKey security requirement); calls without one say nothing about keys, and refuse them.
 */
function documentApiKeyScopes(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const scope = route.config?.apiKeyScope;
    if (!scope) return;
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    const note = `API keys: scope \`${scope}\`.`;
    const response = (schema.response ?? {}) as Record<string, unknown>;
    route.schema = {
      ...schema,
      // A key's call may be refused for its scope (403) or its rate (429).
      response: { 403: errorResponse, 429: errorResponse, ...response },
      security: [{ bearer: [] }, { apiKey: [scope] }],
      description: typeof schema.description === 'string' ? `${schema.description} ${note}` : note,
      'x-api-key-scope': scope,
    } as FastifySchema;
  });
}

/** What a person who must set up two-factor sign-in may still call (docs/product/accounts-and-sessions.md). */
const TWO_FACTOR_SETUP_PATHS = new Set([
  '/api/auth/user',
  '/api/auth/logout',
  '/api/auth/logout-all',
  '/api/auth/2fa/totp/setup',
  '/api/auth/2fa/totp/enable',
]);

/** The paths whose answers may carry a token or personal data: the API and the login call. */
const API_PATH = /^\/(api\/|login(\?|$))/i;

/**
 * No browser or proxy keeps an API answer (docs/product/security.md): every answer of the API and of
 * POST /login without its own caching rule is `no-store`, and an answer to a signed-in request is
 * `private, no-store` even when the route set something else. Public answers that set a rule on
 * purpose (the well-known keys) are not under /api.
 */
function applyNoStore(request: FastifyRequest, reply: FastifyReply): void {
  if (!API_PATH.test(request.url)) return;
  const current = reply.getHeader('cache-control');
  if (request.user) {
    if (typeof current !== 'string' || !current.includes('no-store'))
      reply.header('cache-control', 'private, no-store');
  } else if (current === undefined) {
    reply.header('cache-control', 'no-store');
  }
}

/** The signed-in user of a non-public route (the auth hook guarantees one). */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

/** A route-level guard: `onRequest: requireRole('admin')`. */
export function requireRole(...roles: Role[]) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const user = currentUser(request);
    if (!roles.includes(user.role)) throw forbidden();
  };
}

/** A route-level guard from a policy (server/policies): `onRequest: requirePermission(canAssignSample)`. */
export function requirePermission(allowed: (actor: Actor) => boolean) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    if (!allowed(currentUser(request))) throw forbidden();
  };
}
