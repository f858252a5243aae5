import type { FastifyReply } from 'fastify';

/**
 * Sends a PDF for the browser to show (`inline`) or save (`attachment`), never cached by a shared
 * cache. Binary answers bypass the JSON response schemas, which only describe the error bodies.
 */
export function sendPdf(
  reply: FastifyReply,
  bytes: Buffer,
  file: { name: string; disposition: 'inline' | 'attachment' },
  headers: Record<string, string> = {},
) {
  return reply
    .headers({
      'content-type': 'application/pdf',
      'content-disposition': `${file.disposition}; filename="${file.name}"`,
      'cache-control': 'private, no-store',
      ...headers,
    })
    .send(bytes as unknown as { message: string });
}
