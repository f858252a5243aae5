import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('applies the documented defaults (README.md, Configuration)', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: './data',
      databaseUrl: undefined,
      rateLimits: true,
    });
    expect(c.publicUrl).toBe('http://localhost:3000');
  });

  it('derives PUBLIC_URL from PORT and strips a trailing slash when set', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://lab.example.com/' }).publicUrl).toBe('https://lab.example.com');
  });

  it('refuses a bad PORT with a message naming the variable', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT/);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
  });

  it('reads the job queue timings: first retry, longest wait between attempts, lease', () => {
    expect(loadConfig({})).toMatchObject({
      jobsRetryFirstMs: 30_000,
      jobsRetryMaxMs: 7_200_000,
      jobsLeaseMs: 60_000,
    });
    expect(
      loadConfig({ JOBS_RETRY_FIRST_SECONDS: '1', JOBS_RETRY_MAX_SECONDS: '5', JOBS_LEASE_SECONDS: '5' }),
    ).toMatchObject({ jobsRetryFirstMs: 1000, jobsRetryMaxMs: 5000, jobsLeaseMs: 5000 });
    expect(() => loadConfig({ JOBS_LEASE_SECONDS: '1' })).toThrow(/JOBS_LEASE_SECONDS/);
    expect(() => loadConfig({ JOBS_RETRY_MAX_SECONDS: '0' })).toThrow(/JOBS_RETRY_MAX_SECONDS/);
  });

  it('refuses a DATABASE_URL that is not a postgres URL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).databaseUrl).toBe('postgres://u@h/db');
  });

  it('needs ADMIN_EMAIL and ADMIN_PASSWORD together, and a strong JWT_SECRET', () => {
    expect(() => loadConfig({ ADMIN_EMAIL: 'a@b.co' })).toThrow(/together/);
    expect(() => loadConfig({ ADMIN_EMAIL: 'a@b.co', ADMIN_PASSWORD: 'short' })).toThrow(/ADMIN_PASSWORD/);
    expect(() => loadConfig({ JWT_SECRET: 'too-short' })).toThrow(/JWT_SECRET/);
    expect(loadConfig({ ADMIN_EMAIL: 'Boss@Lab.test', ADMIN_PASSWORD: 'long-enough' }).adminEmail).toBe(
      'boss@lab.test',
    );
  });

  it('turns rate limits off only when asked', () => {
    expect(loadConfig({ RATE_LIMITS: 'off' }).rateLimits).toBe(false);
    expect(() => loadConfig({ RATE_LIMITS: 'maybe' })).toThrow(/RATE_LIMITS/);
  });
});
