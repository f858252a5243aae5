import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

// The lab's security headers (docs/product/security.md). Two fixed sets, both computed once at start:
// - documents (the web app's pages, static assets, PDFs, photos, downloads) get helmet's full set for
//   these options (CSP, nosniff, frame, referrer and cross-origin policies…);
// - JSON answers get the few headers that matter to data that is never rendered as a page: a CSP that
//   allows nothing (`default-src 'none'`, so a JSON answer opened as a page can load and run nothing
//   and cannot be framed), nosniff, no framing, the referrer policy and same-origin resource policy.
// Each answer's set is chosen from its content type when it is sent. The twelve document headers on
// every JSON answer cost the hot public verification call about a tenth of its throughput (the server
// writing them, every client parsing them; docs/benchmarks.md, "Report verification").

export const SECURITY_HEADER_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // Mantine writes its CSS variables in style attributes and tags; scripts stay strict.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      frameSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  crossOriginEmbedderPolicy: false,
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  strictTransportSecurity: false,
};

/** The headers helmet sets for these options, computed by running its middleware on a stand-in response. */
export function computeSecurityHeaders(
  options: HelmetOptions = SECURITY_HEADER_OPTIONS,
): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
      return res;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown = null;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    failure = err ?? null;
  });
  if (failure) throw failure;
  return headers;
}

/** The headers of every JSON answer (see above). */
export const JSON_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-resource-policy': 'same-origin',
});

const isJson = (contentType: unknown) =>
  typeof contentType === 'string' && contentType.startsWith('application/json');

export function registerSecurityHeaders(app: FastifyInstance, options?: HelmetOptions): void {
  const documentHeaders = Object.entries(computeSecurityHeaders(options));
  const jsonHeaders = Object.entries(JSON_SECURITY_HEADERS);
  // When the answer is sent its content type is known. A header a route set itself is kept.
  // X-Powered-By is never set by Fastify; helmet's removal of it needs no per-request work.
  app.addHook('onSend', (_request, reply, payload, done) => {
    for (const [name, value] of isJson(reply.getHeader('content-type')) ? jsonHeaders : documentHeaders)
      if (!reply.hasHeader(name)) reply.header(name, value);
    done(null, payload);
  });
}
