import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { type Database, openPglite, openPostgres } from '../../server/db/client';
import type { Role } from '../../common/domain/roles';
import { users } from '../../server/db/schema';
import { hashPassword } from '../../server/modules/accounts/passwords';
import {
  GENERATED_SIGNING_FILE,
  generateLabCertificates,
} from '../../server/modules/signing/lab-certificates';
import { replacePrivateFile } from '../../server/storage/private-files';
import { DEFAULT_LAB_NAME } from '../../common/domain/reports';
import { createDiskStorage } from '../../server/storage/disk-storage';
import type { Storage } from '../../server/storage/storage';
import { TEMPLATE_DB } from './global-postgres';
import { call } from './http';

// The old home of `call`: kept as a re-export so tests written against it keep working.
export { call, type CallResult } from './http';

export type DbKind = 'pglite' | 'postgres';
export const dbKind = (): DbKind => (process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite');

/** A fresh, migrated database for one test file, on the driver this project runs against. */
export async function freshDatabase(): Promise<{
  database: Database;
  drop(): Promise<void>;
  /** PostgreSQL only: the database's URL, for a second client (a script under test). */
  url?: string;
}> {
  if (dbKind() === 'postgres') {
    const baseUrl = inject('pgUrl');
    const name = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`create database ${name} template ${TEMPLATE_DB}`);
    await admin.end();
    const url = baseUrl.replace(/\/[^/]*$/, `/${name}`);
    const database = await openPostgres(url, { max: 5 });
    return {
      database,
      url,
      async drop() {
        const c = new pg.Client({ connectionString: baseUrl });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      },
    };
  }
  const dump = readFileSync(inject('pgliteTemplate'));
  const database = await openPglite(undefined, { loadDataDir: new Blob([dump]) });
  return { database, drop: async () => {} };
}

/**
 * The signing identity a first start generates under DATA_DIR (a root and a signing certificate, two
 * RSA-2048 key pairs: about half a second of CPU). Made once per test worker and written into each
 * app's DATA_DIR before it starts, so the app loads it as it would after its own first start; a test
 * of the generation itself passes `generateSigningKeys: true`.
 */
let sharedSigningFile: string | undefined;
function writeSharedSigningFile(dataDir: string) {
  sharedSigningFile ??= JSON.stringify(generateLabCertificates(DEFAULT_LAB_NAME), null, 2);
  replacePrivateFile(join(dataDir, GENERATED_SIGNING_FILE), sharedSigningFile);
}

export type TestApp = {
  url: string;
  app: FastifyInstance;
  database: Database;
  db: Database['db'];
  storage: Storage;
  dataDir: string;
  filesDir: string;
  close(): Promise<void>;
};

/** The real app over real HTTP on a free loopback port, with its own database and files. */
export async function startTestApp(
  env: Record<string, string> = {},
  opts: {
    logStream?: { write(line: string): void };
    /** Adds test-only routes or hooks before the app starts listening. */
    beforeListen?: (app: FastifyInstance) => unknown;
    /** false: background jobs run only when the test calls `app.deps.jobs.runDue()`. */
    runJobs?: boolean;
    /** true: the app generates its own signing identity at start, as a fresh DATA_DIR does. */
    generateSigningKeys?: boolean;
  } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vl-app-'));
  if (!opts.generateSigningKeys && !env.SIGNING_P12) writeSharedSigningFile(dataDir);
  const { database, drop } = await freshDatabase();
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    JWT_SECRET: randomBytes(32).toString('hex'),
    PUBLIC_URL: 'http://lab.test',
    ...env,
  });
  const filesDir = join(dataDir, 'files');
  const storage = createDiskStorage(filesDir);
  const logger = opts.logStream ? { level: 'trace', stream: opts.logStream } : false;
  const app = await buildApp({ config, database, storage, logger, serveWeb: false, runJobs: opts.runJobs });
  await opts.beforeListen?.(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    database,
    db: database.db,
    storage,
    dataDir,
    filesDir,
    async close() {
      await app.close();
      await database.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A second instance of the product on `t`'s database, files and server secret, as a deployment behind
 * a load balancer runs it (README.md, deploying); not listening: call it with `inject`. The caller
 * closes it.
 */
export async function secondInstance(
  t: TestApp,
  env: Record<string, string> = {},
  opts: { runJobs?: boolean } = {},
): Promise<FastifyInstance> {
  const app = await buildApp({
    config: loadConfig({
      DATA_DIR: t.dataDir,
      LOG_LEVEL: 'silent',
      // Instances share the server secret: it signs the tokens and seals the mails' live links.
      JWT_SECRET: t.app.deps.config.jwtSecret,
      PUBLIC_URL: 'http://lab.test',
      ...env,
    }),
    database: t.database,
    storage: t.storage,
    logger: false,
    serveWeb: false,
    runJobs: opts.runJobs,
  });
  await app.ready();
  return app;
}

let userCounter = 0;

/** argon2 hashes by password, made once per worker: most test users share the default password. */
const hashes = new Map<string, Promise<string>>();
const hashOf = (password: string) => {
  let hash = hashes.get(password);
  if (!hash) hashes.set(password, (hash = hashPassword(password)));
  return hash;
};

export type TestUser = {
  id: number;
  email: string;
  password: string;
  role: Role;
  token: string;
  firstName: string;
  lastName: string;
};

/** Creates a user directly in the database and logs in over HTTP. */
export async function createUser(
  t: TestApp,
  opts: {
    role?: Role;
    email?: string;
    password?: string;
    firstName?: string;
    lastName?: string;
    isActive?: boolean;
  } = {},
): Promise<TestUser> {
  userCounter += 1;
  const role = opts.role ?? 'user';
  const email = (
    opts.email ?? `${role}${userCounter}-${randomBytes(3).toString('hex')}@example.com`
  ).toLowerCase();
  const password = opts.password ?? 'correct-horse-battery';
  const firstName = opts.firstName ?? `${role[0]?.toUpperCase()}${role.slice(1)}${userCounter}`;
  const lastName = opts.lastName ?? 'Tester';
  const [row] = await t.db
    .insert(users)
    .values({ email, passwordHash: await hashOf(password), firstName, lastName, role })
    .returning();
  if (!row) throw new Error('user not created');
  const res = await call(t, 'POST', '/login', { json: { email, password } });
  if (res.status !== 200) throw new Error(`login failed for test user: ${res.status} ${res.text}`);
  const token = (res.body as { token: string }).token;
  if (opts.isActive === false) await t.db.update(users).set({ isActive: false }).where(eq(users.id, row.id));
  return { id: row.id, email, password, role, token, firstName, lastName };
}
