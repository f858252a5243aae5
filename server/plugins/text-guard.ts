import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors';

// Text the database cannot store faithfully is refused at the edge with 400 (docs/product/security.md):
// a NUL character (PostgreSQL text cannot hold one: the insert would fail with a 500), a lone UTF-16
// surrogate (it would silently become U+FFFD) and bytes that are not UTF-8 at all. This covers every
// JSON body, every path parameter and query string, and the multipart text the routes read
// (`assertCleanText`).

export const INVALID_TEXT_MESSAGE = 'Text must not contain NUL characters or invalid Unicode';

// A high surrogate not followed by a low one, or a low one not preceded by a high one (linear).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isCleanText(s: string): boolean {
  return !s.includes('\u0000') && !LONE_SURROGATE.test(s);
}

/** The path of the first string (key or value) that is not clean text, else null. */
export function findUncleanText(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return isCleanText(value) ? null : path || 'body';
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUncleanText(value[i], path ? `${path}.${i}` : String(i));
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (!isCleanText(key)) return at;
      const found = findUncleanText(v, at);
      if (found !== null) return found;
    }
  }
  return null;
}

export const invalidText = (path: string) =>
  new AppError(400, INVALID_TEXT_MESSAGE, [{ path, message: INVALID_TEXT_MESSAGE }]);

/** Throws 400 when any string in `value` holds a NUL or a lone surrogate. */
export function assertCleanText(value: unknown, path = ''): void {
  const found = findUncleanText(value, path);
  if (found !== null) throw invalidText(found);
}

export function registerTextGuard(app: FastifyInstance): void {
  // JSON bodies: read as bytes so that invalid UTF-8 is seen (a string decoder would hide it behind
  // U+FFFD), then parsed by Fastify's own parser (prototype-poisoning protection kept).
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) {
      done(invalidText('body'), undefined);
      return;
    }
    parseJson(request, bytes.toString('utf8'), (err, parsed) => {
      if (err) {
        done(err, undefined);
        return;
      }
      const found = findUncleanText(parsed);
      if (found !== null) done(invalidText(found), undefined);
      else done(null, parsed);
    });
  });
  // Path parameters and query strings, before any route validates or uses them.
  app.addHook('preValidation', (request: FastifyRequest, _reply, done) => {
    const found = findUncleanText(request.params, 'params') ?? findUncleanText(request.query, 'query');
    done(found === null ? undefined : invalidText(found));
  });
}
