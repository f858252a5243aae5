import proxyAddr from '@fastify/proxy-addr';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { TRUSTED_PROXY_MEMORY, trustedProxies } from './client-address';

const SETTINGS = ['loopback', '10.0.0.0/8, 2001:db8::/32', '192.0.2.7', 'loopback,linklocal,uniquelocal'];
const ADDRESSES = [
  '127.0.0.1',
  '127.9.9.9',
  '::1',
  '::ffff:127.0.0.1',
  '10.1.2.3',
  '::ffff:10.1.2.3',
  '192.0.2.7',
  '192.0.2.8',
  '2001:db8:1::5',
  '2001:db9::1',
  'fe80::1',
  'fd00::1',
  '169.254.1.1',
  '203.0.113.9',
  '0177.0.0.1',
  '2130706433',
  'not an address',
  '',
];

describe('trustedProxies: the TRUST_PROXY setting as a remembered trust function', () => {
  it('answers exactly what proxy-addr answers for the same list, for every hop, asked once or again', () => {
    for (const setting of SETTINGS) {
      const reference = proxyAddr.compile(setting.split(',').map((s) => s.trim()));
      const trust = trustedProxies(setting);
      if (!trust) throw new Error('expected a trust function');
      for (let round = 0; round < 2; round++)
        for (const address of ADDRESSES)
          for (const hop of [0, 1, 3])
            expect([setting, address, hop, trust(address, hop)]).toEqual([
              setting,
              address,
              hop,
              reference(address, hop),
            ]);
    }
  });

  it('keeps answering correctly past its memory bound', () => {
    const trust = trustedProxies('10.0.0.0/8');
    if (!trust) throw new Error('expected a trust function');
    for (let i = 0; i < 3 * TRUSTED_PROXY_MEMORY; i++) {
      expect(trust(`10.0.${(i >> 8) & 255}.${i & 255}`, 1)).toBe(true);
      expect(trust(`11.0.${(i >> 8) & 255}.${i & 255}`, 1)).toBe(false);
    }
    expect(trust('127.0.0.1', 0)).toBe(false);
  });

  it('is off for "none" (false): Fastify then ignores X-Forwarded-For', () => {
    expect(trustedProxies(false)).toBe(false);
  });

  it('gives request.ip the same client address as Fastify given the setting itself', async () => {
    const cases: { remoteAddress: string; forwarded?: string }[] = [
      { remoteAddress: '127.0.0.1', forwarded: '203.0.113.7' },
      { remoteAddress: '127.0.0.1', forwarded: '203.0.113.7, 127.0.0.5' },
      { remoteAddress: '127.0.0.1', forwarded: '198.51.100.2, 203.0.113.7' },
      { remoteAddress: '198.51.100.1', forwarded: '203.0.113.7' },
      { remoteAddress: '::1', forwarded: '2001:db8::9' },
      { remoteAddress: '127.0.0.1' },
    ];
    const serve = async (trustProxy: FastifyServerOptions['trustProxy']) => {
      const app = Fastify({ trustProxy });
      app.get('/ip', async (request) => ({ ip: request.ip, again: request.ip, ips: request.ips }));
      await app.ready();
      return app;
    };
    const mine = trustedProxies('loopback');
    if (!mine) throw new Error('expected a trust function');
    const withFunction = await serve(mine);
    const withSetting = await serve('loopback');
    for (const c of cases) {
      const request = {
        method: 'GET' as const,
        url: '/ip',
        remoteAddress: c.remoteAddress,
        headers: c.forwarded ? { 'x-forwarded-for': c.forwarded } : {},
      };
      const a = (await withFunction.inject(request)).json();
      expect(a).toEqual((await withSetting.inject(request)).json());
      expect(a.ip).toBe(a.again);
    }
    expect(
      (
        await withFunction.inject({
          method: 'GET',
          url: '/ip',
          remoteAddress: '198.51.100.1',
          headers: { 'x-forwarded-for': '203.0.113.7' },
        })
      ).json().ip,
    ).toBe('198.51.100.1');
    await withFunction.close();
    await withSetting.close();
  });
});
