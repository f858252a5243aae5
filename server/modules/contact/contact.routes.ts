import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app';

/** Issue #7: (public contact form: POST /api/contact). */
export function contactRoutes(_deps: AppDeps): FastifyPluginAsyncZod {
  return async (_app) => {};
}
