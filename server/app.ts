import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { DEFAULT_LAB_NAME } from '../common/domain/reports';
import { API_KEY_REQUESTS_PER_MINUTE } from '../common/domain/api-keys';
import { MAX_JSON_BODY_BYTES, MAX_SAMPLE_FILE_BYTES } from '../common/domain/uploads';
import type { AppDeps } from './app-deps';
import type { Config } from './config';
import type { Database } from './db/client';
import { createJobWorker } from './jobs/jobs';
import { createMailer, registerMailDelivery } from './mail/mailer';
import { createLoginThrottle } from './modules/accounts/login-throttle';
import { accountFlowRoutes } from './modules/accounts/account-flows.routes';
import { accountsRoutes } from './modules/accounts/accounts.routes';
import { twoFactorRoutes } from './modules/accounts/two-factor.routes';
import { setPasswordQueueLimit } from './modules/accounts/passwords';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes';
import { healthRoutes } from './modules/health/health.routes';
import { contactRoutes } from './modules/contact/contact.routes';
import { filesRoutes } from './modules/files/files.routes';
import { inquiriesRoutes } from './modules/inquiries/inquiries.routes';
import { labRoutes } from './modules/lab/lab.routes';
import { quotesRoutes } from './modules/quotes/quotes.routes';
import { readLabSettings } from './db/lab-settings';
import { mailRoutes } from './modules/mail/mail.routes';
import { auditRoutes } from './modules/audit/audit.routes';
import { createPhotoCopier } from './modules/photos/photo-copier';
import { photosRoutes } from './modules/photos/photos.routes';
import { reportsRoutes } from './modules/reports/reports.routes';
import { reviewRoutes } from './modules/reports/review.routes';
import { type LabKeys, loadLabKeys } from './modules/signing/lab-keys';
import { wellKnownRoutes } from './modules/signing/well-known.routes';
import { samplesRoutes } from './modules/samples/samples.routes';
import { usersRoutes } from './modules/users/users.routes';
import { disclosureRoutes } from './modules/disclosure/disclosure.routes';
import { verificationRoutes } from './modules/verification/verification.routes';
import { workflowRoutes } from './modules/workflow/workflow.routes';
import { custodyRoutes } from './modules/custody/custody.routes';
import { collectionsRoutes } from './modules/collections/collections.routes';
import { schedulesRoutes } from './modules/schedules/schedules.routes';
import { createTokenService, registerAuth, resolveJwtSecret } from './plugins/auth';
import { createTotpVault, resolveTotpKey, sealStoredTotpKeys } from './modules/accounts/totp-vault';
import { addressKey, networkPrefix, trustedProxies } from './plugins/client-address';
import { registerErrorHandler } from './plugins/errors';
import { registerTextGuard } from './plugins/text-guard';
import { registerSecurityHeaders } from './plugins/security-headers';
import type { Storage } from './storage/storage';

export const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'password',
  'passwordHash',
  '*.password',
  '*.passwordHash',
  'token',
  '*.token',
];

/**
 * A request in the access log: method, route, path and the client's network prefix (/24, /48), never
 * its full address or port, and never the query string, where reset, confirmation, unsubscribe and
 * share tokens travel (docs/product/security.md).
 */
export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    route: request.routeOptions?.url,
    url: request.url.split('?')[0],
    host: request.host,
    network: networkPrefix(request.ip),
  };
}

/** The built web app: `web/` beside the server bundle's folder, else `dist/web` above the source. */
function webRoot(): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  const sibling = join(here, '..', 'web');
  if (existsSync(join(sibling, 'index.html'))) return sibling;
  let dir = here;
  for (let i = 0; i < 4; i++) {
    const candidate = join(dir, 'dist', 'web');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    dir = dirname(dir);
  }
  return null;
}

export async function buildApp(opts: {
  config: Config;
  database: Database;
  storage: Storage;
  logger?: boolean | object;
  serveWeb?: boolean;
  /** Run background jobs in this process (default true). */
  runJobs?: boolean;
  /** Already loaded signing keys (tests share them); else loaded or generated from the config. */
  keys?: LabKeys;
}): Promise<FastifyInstance> {
  const { config, database, storage } = opts;
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' },
            serializers: { req: serializeRequest },
            ...(typeof opts.logger === 'object' ? opts.logger : {}),
          },
    bodyLimit: MAX_JSON_BODY_BYTES,
    // proxy-addr's answer for TRUST_PROXY, remembered per peer address (plugins/client-address.ts).
    trustProxy: trustedProxies(config.trustProxy),
    routerOptions: { caseSensitive: true },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerTextGuard(app);

  setPasswordQueueLimit(config.passwordHashQueue);
  const secret = resolveJwtSecret(config.jwtSecret, config.dataDir);
  const tokens = createTokenService(secret);
  const keys =
    opts.keys ??
    (await loadLabKeys(config, (await readLabSettings(database.db))?.labName?.trim() || DEFAULT_LAB_NAME));
  const deps: AppDeps = {
    config,
    database,
    db: database.db,
    storage,
    tokens,
    loginThrottle: createLoginThrottle(database.db, config.rateLimits),
    totpVault: createTotpVault(resolveTotpKey(config.totpKey, config.dataDir)),
    jobs: createJobWorker({
      db: database.db,
      log: app.log,
      retryFirstMs: config.jobsRetryFirstMs,
      retryMaxMs: config.jobsRetryMaxMs,
      leaseMs: config.jobsLeaseMs,
    }),
    keys,
    mailer: createMailer({ config, secret }),
    photoCopier: createPhotoCopier(config.photoCopyLimits, app.log),
  };
  app.addHook('onClose', async () => deps.photoCopier.close());
  app.decorate('deps', deps);
  // Authenticator keys stored before they were encrypted are sealed now; keys this TOTP_KEY cannot
  // open (it was changed) are reported: those accounts can still sign in with a recovery code.
  const totpKeys = await sealStoredTotpKeys(deps.db, deps.totpVault);
  if (totpKeys.sealed) app.log.info({ sealed: totpKeys.sealed }, 'two-factor keys encrypted at rest');
  if (totpKeys.unreadable)
    app.log.error(
      { unreadable: totpKeys.unreadable },
      'two-factor keys cannot be opened with this TOTP_KEY: restore the key that sealed them, or those accounts must use a recovery code and set up their app again',
    );
  registerMailDelivery({ worker: deps.jobs, db: deps.db, config, storage, mailer: deps.mailer });
  if (opts.runJobs !== false) {
    app.addHook('onReady', async () => deps.jobs.start());
    app.addHook('onClose', async () => deps.jobs.stop());
  }
  if (keys.pdf.source === 'generated')
    app.log.info(
      'report signing keys generated under DATA_DIR: several instances must share DATA_DIR, or set SIGNING_P12 and CREDENTIAL_KEYS',
    );

  registerSecurityHeaders(app);
  // Per-address limits (verify, contact): in this process's memory, or shared by every instance in
  // Redis when REDIS_URL is set. If Redis is unreachable, requests pass rather than fail (skipOnError).
  // Its client is loaded only then: an instance without Redis does not pay for it at every start.
  const redis = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, {
        connectTimeout: 2000,
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
      })
    : null;
  if (redis) {
    redis.on('error', (err) => app.log.warn({ err: err.message }, 'redis unavailable'));
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  }
  await app.register(rateLimit, {
    global: false,
    // Every per-address limit counts by the same key as the login throttle: IPv6 by /64, IPv4-mapped
    // as IPv4 (plugins/client-address.ts).
    keyGenerator: (request) => addressKey(request.ip),
    ...(redis ? { redis, nameSpace: 'vl-rate-', skipOnError: true } : {}),
    ...(config.rateLimits ? {} : { max: Number.MAX_SAFE_INTEGER }),
  });
  await app.register(multipart, {
    limits: { fileSize: MAX_SAMPLE_FILE_BYTES, files: 20, fields: 100, fieldSize: 64 * 1024, parts: 130 },
  });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Valuation Lab API',
        version: '1.0.0',
        description: 'The API of the valuation laboratory portal.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'vlk_…',
            description: 'An API key in the Authorization header; each call names the scope it needs.',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });

  // Each API key has its own request budget, counted like the per-address limits (memory or Redis).
  const keyLimiter = config.rateLimits
    ? app.createRateLimit({
        max: API_KEY_REQUESTS_PER_MINUTE,
        timeWindow: 60_000,
        keyGenerator: (request) => `api-key:${request.apiKey?.id ?? 0}`,
      })
    : null;
  registerAuth(app, {
    db: deps.db,
    database: deps.database,
    tokens,
    apiKeyLimit: keyLimiter
      ? async (request) => {
          const result = await keyLimiter(request);
          return result.isAllowed || !result.isExceeded ? null : result.ttlInSeconds;
        }
      : null,
  });

  await app.register(healthRoutes(deps));
  await app.register(accountsRoutes(deps));
  await app.register(accountFlowRoutes(deps));
  await app.register(twoFactorRoutes(deps));
  await app.register(usersRoutes(deps));
  await app.register(samplesRoutes(deps));
  await app.register(filesRoutes(deps));
  await app.register(photosRoutes(deps));
  await app.register(workflowRoutes(deps));
  await app.register(labRoutes(deps));
  await app.register(quotesRoutes(deps));
  await app.register(inquiriesRoutes(deps));
  await app.register(contactRoutes(deps));
  await app.register(reportsRoutes(deps));
  await app.register(reviewRoutes(deps));
  await app.register(verificationRoutes(deps));
  await app.register(disclosureRoutes(deps));
  await app.register(wellKnownRoutes(deps));
  await app.register(mailRoutes(deps));
  await app.register(apiKeysRoutes(deps));
  await app.register(auditRoutes(deps));
  await app.register(webhooksRoutes(deps));

  await app.register(custodyRoutes(deps));
  await app.register(collectionsRoutes(deps));
  await app.register(schedulesRoutes(deps));

  const root = opts.serveWeb === false ? null : webRoot();
  if (root) {
    await app.register(fastifyStatic, {
      root: resolve(root),
      wildcard: false,
      index: false,
      // scripts/precompress.mjs writes .br/.gz beside each asset at build time.
      preCompressed: true,
      maxAge: '1h',
      setHeaders(res, path) {
        // Vite's hashed file names never change content: cache them for good.
        if (/[\\/]assets[\\/]/.test(path)) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isServerPath =
      /^\/(api|uploads)(\/|$)/i.test(path) || (path === '/login' && request.method !== 'GET');
    if (root && (request.method === 'GET' || request.method === 'HEAD') && !isServerPath) {
      // Client routes fall back to the app's index page; the app shows its own 404 screen. HEAD gets
      // the same status and headers without the body (uptime checks and link checkers use it).
      reply.header('cache-control', 'no-cache');
      return reply.sendFile('index.html', { cacheControl: false });
    }
    return reply.code(404).send({ message: `Not found: ${request.method} ${path}` });
  });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}
