import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse, idParams } from '../../../common/contracts/errors';
import {
  sampleDetail,
  ownSampleListItem,
  sampleSchema,
  type OwnSampleListItem,
} from '../../../common/contracts/samples';
import { utcDay } from '../../../common/domain/turnaround';
import {
  inMegabytes,
  MAX_SAMPLE_DOCUMENTS,
  MAX_SAMPLE_FILE_BYTES,
  MAX_SAMPLE_PHOTOS,
} from '../../../common/domain/uploads';
import { presentQuote } from '../quotes/quotes.presenter';
import type { AppDeps } from '../../app-deps';
import { currentUser } from '../../plugins/auth';
import { notFound } from '../../plugins/errors';
import { presentedJson } from '../../plugins/presented-json';
import { canReadSample } from '../../policies/samples';
import { seesCustodyDetails } from '../../policies/custody';
import { presentOwnSample, presentSample, presentSampleDetail } from './samples.presenter';
import { drawSampleId, findSampleDetail, listOwnSamples } from './samples.queries';
import { OwnListAnswers } from './own-list-answers';
import { receiveSampleSubmission } from './samples.upload';
import { releaseReservation } from './submission-reservations.queries';
import { submissionBudget, submitSample } from './submit-sample';

const NOT_FOUND = 'Sample not found';

/** GET /api/samples, POST /api/samples, GET /api/samples/{id} (docs/product/api.md, limits.md). */
export function samplesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const ownLists = new OwnListAnswers();
  return async (app) => {
    app.get(
      '/api/samples',
      {
        config: { apiKeyScope: 'samples:read' },
        schema: {
          tags: ['samples'],
          summary: "The caller's own samples, newest first",
          security: [{ bearer: [] }],
          description:
            'Each row: id, itemName, category, status, urgencyLevel, submissionDate, lastUpdated, reportGenerated, reportCode, reportRevokedAt and the four service flags; the full record is GET /api/samples/{id}.',
          response: { 200: z.array(ownSampleListItem), 401: errorResponse },
        },
      },
      async (request, reply) => {
        const userId = currentUser(request).id;
        const now = new Date();
        const day = utcDay(now);
        // The answer of an unchanged list is reused (an API key's request has no version: always read).
        const version = request.samplesVersion;
        let body = version === null ? undefined : ownLists.get(userId, version, day);
        if (body === undefined) {
          const rows = await listOwnSamples(deps.database, userId);
          body = JSON.stringify(rows.map((row) => presentOwnSample(row, now)));
          if (version !== null) ownLists.set(userId, version, day, body);
        }
        // The handler writes the JSON itself (the presenter's typed rows, as presentedJson would), so
        // a kept answer is sent as it is and no serializer runs.
        return reply.type('application/json; charset=utf-8').send(body as unknown as OwnSampleListItem[]);
      },
    );

    app.post(
      '/api/samples',
      {
        config: { apiKeyScope: 'samples:write' },
        schema: {
          tags: ['samples'],
          summary: 'Submit a sample (multipart: the form fields, repeated photos and documents)',
          description:
            'Booleans as text. Photos: JPEG, PNG or HEIC by content; documents: PDF, DOC, DOCX, JPG, PNG; ' +
            `at most ${MAX_SAMPLE_PHOTOS} photos and ${MAX_SAMPLE_DOCUMENTS} documents, ` +
            `${inMegabytes(MAX_SAMPLE_FILE_BYTES)} MB each. A refused submission stores nothing.`,
          security: [{ bearer: [] }],
          consumes: ['multipart/form-data'],
          response: {
            201: sampleSchema,
            400: errorResponse,
            401: errorResponse,
            413: errorResponse,
            415: errorResponse,
            429: errorResponse,
          },
        },
      },
      async (request, reply) => {
        const user = currentUser(request);
        const declared = Number(request.headers['content-length']);
        const budget = await submissionBudget(deps, user.id, Number.isNaN(declared) ? undefined : declared);
        // The id the receipt names is drawn while the upload is read (a refused upload leaves a gap).
        const drawn = drawSampleId(deps.database);
        drawn.catch(() => {}); // awaited, and its failure answered, by submitSample
        try {
          const received = await receiveSampleSubmission(request, deps.storage, budget);
          const created = await submitSample(deps, user, received, budget?.reservationId, drawn);
          reply.code(201);
          return presentSample(created, false);
        } catch (err) {
          // The statement that stores the sample ends the reservation; anything short of it gives it back.
          if (budget?.reservationId) await releaseReservation(deps.db, budget.reservationId).catch(() => {});
          throw err;
        }
      },
    );

    app.get(
      '/api/samples/:id',
      {
        config: { apiKeyScope: 'samples:read' },
        serializerCompiler: presentedJson,
        schema: {
          tags: ['samples'],
          summary: 'One sample with files, report elements, status history, owner and assigned staff',
          security: [{ bearer: [] }],
          params: idParams,
          response: { 200: sampleDetail, 400: errorResponse, 401: errorResponse, 404: errorResponse },
        },
      },
      async (request) => {
        const user = currentUser(request);
        const found = await findSampleDetail(deps.db, request.params.id);
        if (!found || !canReadSample(user, found.sample)) throw notFound(NOT_FOUND);
        const { quote } = found;
        return presentSampleDetail(found, quote ? presentQuote(quote) : null, seesCustodyDetails(user));
      },
    );
  };
}
