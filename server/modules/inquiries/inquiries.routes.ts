import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app';

/** Issue #5: (admin contact inquiries: /api/admin/contact-inquiries*). */
export function inquiriesRoutes(_deps: AppDeps): FastifyPluginAsyncZod {
  return async (_app) => {};
}
