import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/** One problem with one field of a request: `path` is the field ('elements.0.percentage'). */
export type FieldError = { path: string; message: string };

/** The one error type routes throw: a status and a message safe to show the client. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldError[],
    /** Headers the answer carries (Retry-After on 429 and 503). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, errors?: FieldError[]) => new AppError(400, message, errors);
export const unauthorized = (message = 'Authentication required') => new AppError(401, message);
export const forbidden = (message = 'You do not have permission to do this') => new AppError(403, message);
export const notFound = (message = 'Not found') => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const tooLarge = (message = 'Upload too large') => new AppError(413, message);
export const unsupportedType = (message = 'Unsupported file type') => new AppError(415, message);

/** zod's issues as field errors; an issue about the whole payload is reported on `rootPath`. */
export function fieldErrors(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  rootPath = '',
): FieldError[] {
  return issues.map((i) => ({ path: i.path.map(String).join('.') || rootPath, message: i.message }));
}

/**
 * The one answer to a refused payload (docs/product/messages.md): 400 with every problem in
 * `errors` and, as `message`, the first problem's own text — the contract's wording, which the web
 * app shows as is — unless the call has a fixed message of its own.
 */
export function invalidPayload(errors: FieldError[], message?: string): AppError {
  return badRequest(message ?? errors[0]?.message ?? 'Invalid request', errors);
}

const DB_UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '08006',
  '08001',
  '08003',
]);

/** Walks `cause` chains: drizzle wraps driver errors, whose message carries SQL we must not leak. */
function causeCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 5 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (/^[0-9A-Z]{5}$/.test(code) || DB_UNAVAILABLE_CODES.has(code)))
      return code;
    e = (e as { cause?: unknown }).cause;
  }
  const msg = err instanceof Error ? err.message : '';
  if (/Connection terminated|connection timeout|Client has encountered a connection error/i.test(msg))
    return 'ECONNRESET';
  return undefined;
}

type ErrorBody = { message: string; errors?: FieldError[] };

export function toHttpError(err: unknown): {
  status: number;
  body: ErrorBody;
  log: boolean;
  headers?: Record<string, string>;
} {
  if (err instanceof AppError) {
    return {
      status: err.statusCode,
      body: err.errors ? { message: err.message, errors: err.errors } : { message: err.message },
      log: false,
      ...(err.headers ? { headers: err.headers } : {}),
    };
  }
  if (hasZodFastifySchemaValidationErrors(err)) {
    const errors: FieldError[] = err.validation.map((v) => ({
      path:
        String(v.instancePath ?? '')
          .replace(/^\//, '')
          .replace(/\//g, '.') ||
        String((v.params as { issue?: { path?: unknown[] } })?.issue?.path?.join('.') ?? ''),
      message: v.message ?? 'Invalid value',
    }));
    return toHttpError(invalidPayload(errors));
  }
  const fe = err as FastifyError;
  const code = causeCode(err);
  if (code === '23505') return { status: 409, body: { message: 'This record already exists' }, log: false };
  if (code === '23503')
    return { status: 400, body: { message: 'A referenced record does not exist' }, log: false };
  if (code === '22P02' || code === '22003' || code === '22001')
    return { status: 400, body: { message: 'Invalid value' }, log: false };
  if (code && (DB_UNAVAILABLE_CODES.has(code) || code.startsWith('08') || code.startsWith('57P'))) {
    return {
      status: 503,
      body: { message: 'The service is temporarily unavailable. Please try again shortly.' },
      log: true,
    };
  }
  if (
    fe?.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ||
    fe?.statusCode === 413 ||
    fe?.code === 'FST_REQ_FILE_TOO_LARGE' ||
    fe?.code === 'FST_FILES_LIMIT' ||
    fe?.code === 'FST_PARTS_LIMIT' ||
    fe?.code === 'FST_FIELDS_LIMIT'
  ) {
    return { status: 413, body: { message: 'Request body is too large' }, log: false };
  }
  if (fe?.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || fe?.statusCode === 415) {
    return { status: 415, body: { message: 'Unsupported content type' }, log: false };
  }
  if (
    fe?.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    fe?.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
    err instanceof SyntaxError
  ) {
    return { status: 400, body: { message: 'Malformed JSON body' }, log: false };
  }
  if (fe?.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || fe?.code === 'FST_PROTO_VIOLATION') {
    return { status: 400, body: { message: 'Malformed multipart body' }, log: false };
  }
  if (fe?.statusCode === 429)
    return { status: 429, body: { message: fe.message || 'Too many requests' }, log: false };
  if (typeof fe?.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return { status: fe.statusCode, body: { message: fe.message || 'Bad request' }, log: false };
  }
  return { status: 500, body: { message: 'Internal server error' }, log: true };
}

/** Error answers wait for at most this much of an unread request body (and DRAIN_TIMEOUT_MS). */
export const DRAIN_CAP_BYTES = 64 * 1024 * 1024;
const DRAIN_TIMEOUT_MS = 15_000;

/**
 * Reads and discards what is left of a request body (at most `cap` bytes, at most DRAIN_TIMEOUT_MS).
 * A client that is still sending when the answer arrives and the connection closes sees a broken
 * pipe instead of the answer; once its body is read, it reads the 413 (or 401, 429…) it was sent.
 */
export function drainRequest(raw: IncomingMessage, cap = DRAIN_CAP_BYTES): Promise<void> {
  if (raw.readableEnded || raw.destroyed || raw.complete) return Promise.resolve();
  const length = Number(raw.headers['content-length'] ?? 0);
  const chunked = /chunked/i.test(String(raw.headers['transfer-encoding'] ?? ''));
  if (!chunked && !(length > 0)) return Promise.resolve();
  if (length > cap) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', done);
      raw.off('close', done);
      raw.off('error', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > cap) done();
    };
    const timer = setTimeout(done, DRAIN_TIMEOUT_MS);
    raw.on('data', onData);
    raw.on('end', done);
    raw.on('close', done);
    raw.on('error', done);
    // A multipart parser the route stopped reading would hold the body back: detach it first.
    raw.unpipe();
    raw.resume();
  });
}

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler(async (err, request, reply) => {
    const { status, body, log, headers } = toHttpError(err);
    await drainRequest(request.raw);
    if (headers) reply.headers(headers);
    if (log)
      request.log.error(
        {
          err: {
            type: (err as Error)?.name,
            code: causeCode(err),
            stack: (err as Error)?.stack?.split('\n').slice(1, 8).join('\n'),
          },
        },
        'request failed',
      );
    return reply.code(status).type('application/json').send(body);
  });
}
