import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CONTACT_SUBJECT_LABELS,
  CONTACT_HONEYPOT_FIELD,
  CONTACT_RATE_LIMIT,
  contactRequest,
  contactResponse,
} from '../../../common/contracts/contact';
import { errorResponse } from '../../../common/contracts/errors';
import type { AppDeps } from '../../app-deps';
import { badRequest } from '../../plugins/errors';
import { presentInquiry } from '../inquiries/inquiries.presenter';
import { insertContactInquiry } from './contact.queries';

export const HONEYPOT_REFUSAL = 'Message rejected';

/** The public contact form: POST /api/contact (docs/product/api.md), stored with status new. */
const subjectLabel = (s: string) => (CONTACT_SUBJECT_LABELS as Record<string, string | undefined>)[s] ?? s;

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
        const body = request.body;
        // A filled honeypot means a bot: refuse, and store nothing.
        if (body[CONTACT_HONEYPOT_FIELD]) throw badRequest(HONEYPOT_REFUSAL);
        const row = await deps.db.transaction(async (tx) => {
          const stored = await insertContactInquiry(tx, {
            firstName: body.firstName,
            lastName: body.lastName,
            email: body.email,
            phone: body.phone,
            subject: body.subject,
            message: body.message,
            status: 'new',
          });
          // The acknowledgement commits with the inquiry (docs/product/mail.md).
          await deps.mailer.queue(tx, stored.email, 'contactAck', {
            subject: subjectLabel(stored.subject),
          });
          return stored;
        });
        reply.code(201);
        return presentInquiry(row);
      },
    );
  };
}
