import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CONTACT_RATE_LIMIT, contactRequest, contactResponse } from '../../../common/contracts/contact';
import { errorResponse } from '../../../common/contracts/errors';
import type { AppDeps } from '../../app-deps';
import { presentInquiry } from '../inquiries/inquiries.presenter';
import { receiveContactMessage } from './receive-message';

/** The public contact form: POST /api/contact (docs/product/api.md), stored with status new. */
export function contactRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/contact',
      {
        config: {
          public: true,
          // Per client address (docs/product/limits.md); RATE_LIMITS=off leaves the route unlimited.
          ...(deps.config.rateLimits
            ? { rateLimit: { max: CONTACT_RATE_LIMIT.max, timeWindow: CONTACT_RATE_LIMIT.timeWindowMs } }
            : {}),
        },
        schema: {
          tags: ['contact'],
          summary: 'Send a message to the laboratory (public contact form)',
          body: contactRequest,
          response: { 201: contactResponse, 400: errorResponse, 413: errorResponse, 429: errorResponse },
        },
      },
      async (request, reply) => {
        const row = await receiveContactMessage(deps, request.body);
        reply.code(201);
        return presentInquiry(row);
      },
    );
  };
}
