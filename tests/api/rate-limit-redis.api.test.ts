import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROGRAMS, requireProgram } from '../support/programs';
import { startRedis, type RedisServer } from '../support/redis';
import { call, startTestApp, type TestApp } from '../support/test-app';

// The high-rate per-address limits (verify, contact) are per process by default and shared by every
// instance when REDIS_URL is set. A probe route with a limit of 3 per minute stands in for them.
const LIMIT = 3;
const addProbe = (app: FastifyInstance) =>
  app.get(
    '/api/test-limited',
    { config: { public: true, rateLimit: { max: LIMIT, timeWindow: 60_000 } } },
    async () => ({ ok: true }),
  );

const { name, path, apt } = PROGRAMS.redis;
const hasRedis = requireProgram(name, path, apt, 'the Redis rate-limit tests');

let redis: RedisServer;
const apps: TestApp[] = [];
const start = async (env: Record<string, string> = {}) => {
  const t = await startTestApp(env, { beforeListen: addProbe });
  apps.push(t);
  return t;
};
const hit = async (t: TestApp) => (await call(t, 'GET', '/api/test-limited')).status;

beforeAll(async () => {
  if (hasRedis) redis = await startRedis();
});
afterAll(async () => {
  for (const t of apps) await t.close();
  await redis?.stop();
});

describe.skipIf(!hasRedis)('per-address rate limits across instances', { timeout: 120_000 }, () => {
  it('without Redis, each instance counts on its own', async () => {
    const a = await start();
    const b = await start();
    for (let i = 0; i < LIMIT; i++) expect(await hit(a)).toBe(200);
    expect(await hit(a)).toBe(429);
    expect(await hit(b)).toBe(200);
  });

  it('with REDIS_URL, two instances share one count per address', async () => {
    const a = await start({ REDIS_URL: redis.url });
    const b = await start({ REDIS_URL: redis.url });
    expect(await hit(a)).toBe(200);
    expect(await hit(b)).toBe(200);
    expect(await hit(a)).toBe(200);
    const refused = await call(b, 'GET', '/api/test-limited');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ message: expect.any(String) });
    expect(refused.text).not.toMatch(/redis|stack/i);
    expect(await hit(a)).toBe(429);
  });

  it('when Redis is unreachable, requests are served rather than refused', async () => {
    const c = await start({ REDIS_URL: 'redis://127.0.0.1:1' });
    for (let i = 0; i < LIMIT + 2; i++) expect(await hit(c)).toBe(200);
  });
});
