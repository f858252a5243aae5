import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app';

/** Issue #6: (report elements, issuing, PDF download, revocation). */
export function reportsRoutes(_deps: AppDeps): FastifyPluginAsyncZod {
  return async (_app) => {};
}
