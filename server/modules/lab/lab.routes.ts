import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app';

/** Issue #5: (lab settings: GET/POST /api/lab/settings). */
export function labRoutes(_deps: AppDeps): FastifyPluginAsyncZod {
  return async (_app) => {};
}
