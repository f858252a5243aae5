import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app';

/** Issue #5: (staff and admin sample workflow: /api/staff/samples*, /api/admin/samples*). */
export function workflowRoutes(_deps: AppDeps): FastifyPluginAsyncZod {
  return async (_app) => {};
}
