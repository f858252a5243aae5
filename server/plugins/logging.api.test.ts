import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../tests/support/test-app';

// Structured logs never contain passwords, tokens or hashes (issue #2).
const lines: string[] = [];
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: 'trace' }, { logStream: { write: (line) => void lines.push(line) } });
});
afterAll(async () => {
  await t?.close();
});

describe('logging', () => {
  it('logs requests without passwords, tokens or hashes', async () => {
    const password = 'very-secret-password-123';
    const reg = await call(t, 'POST', '/api/register', {
      json: { email: 'log@check.test', password, firstName: 'Log', lastName: 'Check' },
    });
    expect(reg.status).toBe(201);
    const login = await call(t, 'POST', '/login', { json: { email: 'log@check.test', password } });
    const token = (login.body as { token: string }).token;
    expect(token).toBeTruthy();
    await call(t, 'GET', '/api/auth/user', { token });
    await call(t, 'POST', '/login', { json: { email: 'log@check.test', password: 'wrong-password-xyz' } });
    const all = lines.join('\n');
    expect(lines.length).toBeGreaterThan(4);
    expect(all).toContain('/api/auth/user');
    expect(all).not.toContain(password);
    expect(all).not.toContain('wrong-password-xyz');
    expect(all).not.toContain(token);
    expect(all).not.toContain(token.split('.')[2]);
    expect(all).not.toMatch(/\$argon2id\$/);
  });

  it('logs the route and path, never the query string with its tokens', async () => {
    lines.length = 0;
    const secrets = [
      'ResetTokenAbcdefghijklmnop123',
      'UnsubscribeTokenQrstuvwxyz456',
      'ShareTokenZyxwvutsrq789',
    ];
    await call(t, 'GET', `/reset-password?token=${secrets[0]}`);
    await call(t, 'POST', `/api/mail/unsubscribe?token=${secrets[1]}`);
    await call(t, 'GET', `/api/reports/verify/ABCDEFGH?share=${secrets[2]}`);
    await call(t, 'GET', `/api/no-such-route?token=${secrets[0]}`);
    const all = lines.join('\n');
    expect(all).toContain('"url":"/api/reports/verify/ABCDEFGH"');
    expect(all).toContain('"route":"/api/reports/verify/:code"');
    expect(all).toContain('"url":"/api/mail/unsubscribe"');
    for (const secret of secrets) expect(all).not.toContain(secret);
    expect(all).not.toContain('token=');
    expect(all).not.toContain('share=');
  });

  it('keeps only the network prefix of client addresses (docs/product/security.md)', async () => {
    lines.length = 0;
    await call(t, 'GET', '/api/health', { headers: { 'x-forwarded-for': '203.0.113.77' } });
    await call(t, 'GET', '/api/health', { headers: { 'x-forwarded-for': '2001:db8:1:2::5' } });
    const all = lines.join('\n');
    expect(all).toContain('"network":"203.0.113.0/24"');
    expect(all).toContain('"network":"2001:db8:1::/48"');
    expect(all).not.toContain('203.0.113.77');
    expect(all).not.toContain('2001:db8:1:2');
    expect(all).not.toContain('remoteAddress');
    expect(all).not.toContain('remotePort');
  });
});
