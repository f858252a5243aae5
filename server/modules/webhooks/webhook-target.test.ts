import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { addressAllowed, checkTarget, postToTarget, TargetRefused } from './webhook-target';

// Which addresses a webhook may reach (docs/product/partners.md).

describe('addressAllowed', () => {
  it('allows public unicast addresses only', () => {
    for (const a of ['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      expect(addressAllowed(a, false), a).toBe(true);
    for (const a of [
      '10.0.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '127.0.0.1',
      '0.0.0.0',
      '100.64.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fc00::1',
      'fdff::1',
      'fe80::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:192.168.1.1',
      '64:ff9b::a00:1',
      'not an address',
    ])
      expect(addressAllowed(a, false), a).toBe(false);
  });

  it('lets loopback (IPv4, IPv6, IPv4-mapped) through with the switch, and nothing else private', () => {
    for (const a of ['127.0.0.1', '127.5.5.5', '::1', '::ffff:127.0.0.1'])
      expect(addressAllowed(a, true), a).toBe(true);
    for (const a of ['10.0.0.1', '192.168.1.1', '169.254.1.1', 'fc00::1', 'fe80::1'])
      expect(addressAllowed(a, true), a).toBe(false);
  });
});

describe('checkTarget', () => {
  it('refuses a host name that resolves to 127.0.0.1 without the switch', async () => {
    await expect(checkTarget('http://localhost:9/hook', false)).rejects.toBeInstanceOf(TargetRefused);
    await expect(checkTarget('http://127.0.0.1:9/hook', false)).rejects.toThrow(
      'This URL points to a private, loopback or link-local address',
    );
    await expect(checkTarget('http://[::1]:9/hook', false)).rejects.toBeInstanceOf(TargetRefused);
    const allowed = await checkTarget('http://localhost:9/hook', true);
    expect(addressAllowed(allowed.address, true)).toBe(true);
  });

  it('refuses a host that does not resolve', async () => {
    await expect(checkTarget('http://no-such-host.invalid/hook', true)).rejects.toThrow(
      'The host of this URL could not be found',
    );
  });
});

describe('postToTarget', () => {
  it('connects to the checked address, whatever the host name would resolve to now', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(String(req.headers.host));
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const { port } = server.address() as AddressInfo;
    try {
      // The name does not resolve at all: only the pinned, checked address can be reached.
      const answer = await postToTarget(
        { url: new URL(`http://partner.invalid:${port}/hook`), address: '127.0.0.1', family: 4 },
        '{}',
        {},
      );
      expect(answer).toEqual({ statusCode: 200, text: 'ok' });
      expect(seen).toEqual([`partner.invalid:${port}`]);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
