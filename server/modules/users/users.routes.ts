import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app';

/** Issue #3: (profile and admin user management: /api/users/profile, /api/admin/users*). */
export function usersRoutes(_deps: AppDeps): FastifyPluginAsyncZod {
  return async (_app) => {};
}
