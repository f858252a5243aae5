// The one HTTP helper of the test suites: API tests, end-to-end setup, resilience and benchmarks all
// call the product through `call`, so a test reads as the request it makes.

export type CallResult = {
  status: number;
  body: unknown;
  text: string;
  headers: Headers;
  /** The raw bytes of a binary answer (a PDF); absent for text answers. */
  buffer?: Buffer;
};

/** One HTTP call: JSON or multipart body, optional bearer token; the body parsed when it is JSON. */
export async function call(
  t: { url: string },
  method: string,
  path: string,
  opts: {
    token?: string;
    json?: unknown;
    form?: FormData;
    headers?: Record<string, string>;
    rawBody?: string | Buffer;
  } = {},
): Promise<CallResult> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: BodyInit | undefined;
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.form) {
    body = opts.form;
  } else if (opts.rawBody !== undefined) {
    body = opts.rawBody as BodyInit;
  }
  const res = await fetch(`${t.url}${path}`, { method, headers, body });
  const buf = Buffer.from(await res.arrayBuffer());
  const text = res.headers.get('content-type')?.includes('application/pdf') ? '' : buf.toString('utf8');
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: res.status, body: parsed, text, headers: res.headers, ...(text ? {} : { buffer: buf }) };
}

/** Like `call`, but a non-success answer throws (with its status and body): for setting up a scene. */
export async function callOk<T = unknown>(
  t: { url: string },
  method: string,
  path: string,
  opts: Parameters<typeof call>[3] = {},
): Promise<T> {
  const res = await call(t, method, path, opts);
  if (res.status < 200 || res.status > 299) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body as T;
}

/** Logs in over HTTP and answers the token. */
export async function loginToken(t: { url: string }, email: string, password: string): Promise<string> {
  return (await callOk<{ token: string }>(t, 'POST', '/login', { json: { email, password } })).token;
}

/** Registers a customer account over HTTP and answers the created account. */
export async function registerAccount(
  t: { url: string },
  account: { email: string; password: string; firstName: string; lastName: string },
): Promise<{ id: number; email: string; role: string }> {
  return callOk(t, 'POST', '/api/register', { json: account });
}

/**
 * The JSON text of an answer for a check that no amount or name leaks into it, with every SHA-256
 * digest and UUID replaced by a placeholder: random hex holds any four-digit number now and then
 * ('9500' turned up in a schedule's PDF digest in one CI run), and these fields carry no value.
 */
export const leakCheckText = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/\b[0-9a-f]{64}\b/g, '<sha256>')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, '<uuid>');
