import { HttpError } from '../../lib/api';

// Report generation: what the web app says for each failure (docs/product/messages.md).

export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Redirecting to login...';
export const SESSION_EXPIRED_REDIRECT_MS = 2000;
export const ACCESS_DENIED_MESSAGE = 'Access Denied: You do not have permission to generate this report.';
export const SERVER_ERROR_MESSAGE =
  'Failed to generate report due to a server issue. Please try again or contact support.';

export type GenerationFailure =
  | { kind: 'server'; title: 'Server Error'; message: string }
  | { kind: 'session'; title: 'Error'; message: string }
  | { kind: 'denied'; title: 'Error'; message: string }
  | { kind: 'other'; title: 'Error'; message: string };

export function describeGenerationFailure(err: unknown): GenerationFailure {
  const status = err instanceof HttpError ? err.status : 0;
  const serverMessage = err instanceof HttpError ? err.serverMessage : undefined;
  const text = err instanceof Error ? err.message : '';
  // Only a 500 that says the generation itself failed is a 'Server Error'; any other answer falls
  // through to its own words below.
  if (status === 500 && /Failed to generate/i.test(serverMessage ?? '')) {
    return { kind: 'server', title: 'Server Error', message: SERVER_ERROR_MESSAGE };
  }
  if (status === 401 || /authentication|token/i.test(serverMessage ?? (status ? '' : text))) {
    return { kind: 'session', title: 'Error', message: SESSION_EXPIRED_MESSAGE };
  }
  if (status === 403) return { kind: 'denied', title: 'Error', message: ACCESS_DENIED_MESSAGE };
  return { kind: 'other', title: 'Error', message: serverMessage || 'Failed to generate report' };
}
