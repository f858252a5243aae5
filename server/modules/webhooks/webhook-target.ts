import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { WEBHOOK_HOST_UNKNOWN, WEBHOOK_PRIVATE_TARGET } from '../../../common/contracts/webhooks';
import { WEBHOOK_RESPONSE_SNIPPET_CHARS, WEBHOOK_TIMEOUT_MS } from '../../../common/domain/webhooks';

// Where a webhook may be delivered (docs/product/partners.md): only public unicast addresses, checked
// when the endpoint is registered and again at every delivery, and the connection is made to the very
// address that was checked, so a DNS answer that changes in between (rebinding) cannot reach the lab's
// own network. WEBHOOKS_ALLOW_LOOPBACK=1 (tests, local development) lets loopback through.

/** Why a target is refused: an address that is not public, or a host that does not resolve. */
export class TargetRefused extends Error {}

/** A public unicast address (IPv4-mapped IPv6 judged as the IPv4 it carries), or loopback if allowed. */
export function addressAllowed(address: string, allowLoopback: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  const range = ipaddr.process(address).range();
  return range === 'unicast' || (allowLoopback && range === 'loopback');
}

export type CheckedTarget = { url: URL; address: string; family: 4 | 6 };

/** Resolves the URL's host and checks every address it has; answers the one to connect to. */
export async function checkTarget(rawUrl: string, allowLoopback: boolean): Promise<CheckedTarget> {
  const url = new URL(rawUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw new TargetRefused(WEBHOOK_HOST_UNKNOWN);
    }
  }
  const first = addresses[0];
  if (!first) throw new TargetRefused(WEBHOOK_HOST_UNKNOWN);
  // Every address must pass: a host with one public and one private address is refused.
  if (!addresses.every((a) => addressAllowed(a.address, allowLoopback)))
    throw new TargetRefused(WEBHOOK_PRIVATE_TARGET);
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

export type EndpointAnswer = { statusCode: number; text: string };

/**
 * POSTs `body` to the checked target, connecting to its checked address (the URL's host still names
 * the server for TLS and the Host header). Answers the status and the start of the answer.
 */
export function postToTarget(
  target: CheckedTarget,
  body: string,
  headers: Record<string, string>,
): Promise<EndpointAnswer> {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      target.url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
        lookup: pinned,
        agent: false,
        timeout: WEBHOOK_TIMEOUT_MS,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (text.length < WEBHOOK_RESPONSE_SNIPPET_CHARS) text += chunk;
          else res.destroy();
        });
        const done = () =>
          resolve({ statusCode: res.statusCode ?? 0, text: text.slice(0, WEBHOOK_RESPONSE_SNIPPET_CHARS) });
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`No answer within ${WEBHOOK_TIMEOUT_MS / 1000} s`)));
    req.on('error', reject);
    req.end(body);
  });
}
