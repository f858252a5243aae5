import { errorMessage } from '../../../lib/api';

/** The server's message, else the client's 'HTTP error! …' text (docs/product/messages.md). */
export const reason = (err: unknown) =>
  errorMessage(err, err instanceof Error ? err.message : 'Unknown error');
