import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app';

/** Issue #4: (sample intake: GET/POST /api/samples, GET /api/samples/{id}). */
export function samplesRoutes(_deps: AppDeps): FastifyPluginAsyncZod {
  return async (_app) => {};
}
