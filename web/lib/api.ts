// The one API client (docs/product/api.md, messages.md): bearer token from localStorage 'token', JSON unless the body is
// form data, bodies read as text and parsed as JSON (empty → null), and every non-success answer
// raises 'HTTP error! status: {status}, message: {body}' carrying the status code.

export const TOKEN_KEY = 'token';

export const getToken = () => localStorage.getItem(TOKEN_KEY);
export const setToken = (token: string) => localStorage.setItem(TOKEN_KEY, token);
export const clearToken = () => localStorage.removeItem(TOKEN_KEY);

/** Keys of this browser's storage holding an account's own data (a sample draft): gone at log-out. */
export const ACCOUNT_DATA_PREFIX = 'account:';
/** Forgets every account's data kept in this browser, so the next person on it sees none of it. */
export function clearAccountData(): void {
  for (const key of Object.keys(localStorage))
    if (key.startsWith(ACCOUNT_DATA_PREFIX)) localStorage.removeItem(key);
}

/**
 * POST /api/auth/logout: the server ends this token at once (docs/product/accounts-and-sessions.md).
 * Never throws and waits at most a few seconds: signing out of this browser happens regardless.
 */
export async function endServerSession(token: string): Promise<void> {
  try {
    await fetch('/api/auth/logout', {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      keepalive: true,
      signal: AbortSignal.timeout(5000),
    });
  } catch {
    // Offline or slow: the token still leaves this browser.
  }
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly bodyText: string,
    /** The server's `message` field when the body was JSON. */
    readonly serverMessage: string | undefined,
  ) {
    super(`HTTP error! status: ${status}, message: ${bodyText}`);
  }
}

/** The per-field messages of a 400 answer ({errors: [{path, message}]}), keyed by field name. */
export function serverFieldErrors(err: unknown): Record<string, string> {
  if (!(err instanceof HttpError) || err.status !== 400) return {};
  try {
    const body = JSON.parse(err.bodyText) as { errors?: { path?: unknown; message?: unknown }[] };
    const out: Record<string, string> = {};
    for (const e of body.errors ?? []) {
      if (typeof e.path === 'string' && typeof e.message === 'string' && !(e.path in out))
        out[e.path] = e.message;
    }
    return out;
  } catch {
    return {};
  }
}

function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function messageOf(parsed: unknown): string | undefined {
  if (parsed && typeof parsed === 'object' && typeof (parsed as { message?: unknown }).message === 'string') {
    return (parsed as { message: string }).message;
  }
  return undefined;
}

function authHeaders(): Record<string, string> {
  const token = getToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

export async function apiRequest<T>(method: string, path: string, body?: unknown): Promise<T> {
  const isForm = body instanceof FormData;
  const response = await fetch(path, {
    method,
    headers: {
      ...authHeaders(),
      ...(body !== undefined && !isForm ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
  });
  const text = await response.text();
  const parsed = parseBody(text);
  if (!response.ok) throw new HttpError(response.status, text, messageOf(parsed));
  return parsed as T;
}

/** A GET of one page of a list, with the total from the `X-Total-Count` header (null when absent). */
export async function getPage<T>(
  path: string,
): Promise<{ rows: T[]; total: number | null; estimated?: boolean }> {
  const response = await fetch(path, { headers: authHeaders() });
  const text = await response.text();
  const parsed = parseBody(text);
  if (!response.ok) throw new HttpError(response.status, text, messageOf(parsed));
  const header = response.headers.get('X-Total-Count');
  return {
    rows: (parsed as T[] | null) ?? [],
    total: header === null ? null : Number(header),
    // A searched list's total beyond 10,000 rows is the database's estimate (docs/decisions/0025-search.md).
    estimated: response.headers.get('X-Total-Count-Estimated') === 'true',
  };
}

export const api = {
  get: <T>(path: string) => apiRequest<T>('GET', path),
  post: <T>(path: string, body?: unknown) => apiRequest<T>('POST', path, body),
  put: <T>(path: string, body?: unknown) => apiRequest<T>('PUT', path, body),
};

/**
 * The server's message when it answered with one, else the screen's own fallback. A request that
 * never got an answer (offline, refused, aborted) has only the browser's words ('Failed to fetch'),
 * which tell the user nothing, so it gets the fallback too.
 */
export function errorMessage(err: unknown, fallback: string): string {
  return (err instanceof HttpError && err.serverMessage) || fallback;
}

/** Multipart upload with progress (fetch cannot report upload progress). */
export function apiUpload<T>(
  method: string,
  path: string,
  form: FormData,
  onProgress?: (fraction: number) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, path);
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress?.(e.loaded / e.total);
    };
    xhr.onload = () => {
      const parsed = parseBody(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) resolve(parsed as T);
      else reject(new HttpError(xhr.status, xhr.responseText, messageOf(parsed)));
    };
    xhr.onerror = () => reject(new Error('Network error'));
    xhr.send(form);
  });
}

/**
 * Files under /Uploads and report PDFs need the token, so they are fetched as blobs. With `json`,
 * the file is the answer to a POST of that body (a report preview).
 */
export async function fetchBlob(path: string, json?: unknown): Promise<Blob> {
  const response = await fetch(
    path,
    json === undefined
      ? { headers: authHeaders() }
      : {
          method: 'POST',
          headers: { ...authHeaders(), 'Content-Type': 'application/json' },
          body: JSON.stringify(json),
        },
  );
  if (!response.ok) {
    const text = await response.text();
    throw new HttpError(response.status, text, messageOf(parseBody(text)));
  }
  return response.blob();
}

export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Shows a file fetched with the token in a new tab. The tab is opened at once, inside the click that
 * asked for it, because pop-up blockers refuse a window opened later (after the download); the file
 * is put into it when it has arrived. A failed download closes the tab and rethrows.
 */
export async function openInNewTab(load: () => Promise<Blob>): Promise<void> {
  const tab = window.open('', '_blank');
  // The opened page must not reach back into this one.
  if (tab) tab.opener = null;
  try {
    const url = URL.createObjectURL(await load());
    if (tab) tab.location.href = url;
    else window.open(url, '_blank', 'noopener');
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (err) {
    tab?.close();
    throw err;
  }
}
