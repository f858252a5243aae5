import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app-deps';

const healthResponse = z.object({ status: z.enum(['ok', 'unavailable']) });

export function healthRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/health',
      {
        config: { public: true },
        schema: {
          tags: ['health'],
          summary: 'Liveness and database check',
          response: { 200: healthResponse, 503: healthResponse },
        },
      },
      async (_request, reply) => {
        if (await deps.database.ping()) return { status: 'ok' as const };
        reply.code(503);
        return { status: 'unavailable' as const };
      },
    );
  };
}
