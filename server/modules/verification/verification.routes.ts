import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app';

/** Issue #6: (public verification: /api/reports/verify/*). */
export function verificationRoutes(_deps: AppDeps): FastifyPluginAsyncZod {
  return async (_app) => {};
}
