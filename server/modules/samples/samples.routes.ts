import { displaySampleId } from '../../../common/domain/samples';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse, idParams } from '../../../common/contracts/errors';
import {
  SAMPLE_SUBMISSION_MESSAGES,
  type SampleDetail,
  sampleDetail,
  ownSampleListItem,
  sampleSchema,
  sampleSubmissionFields,
} from '../../../common/contracts/samples';
import type { AppDeps } from '../../app';
import { currentUser } from '../../plugins/auth';
import { AppError, badRequest, notFound } from '../../plugins/errors';
import { presentedJson } from '../../plugins/presented-json';
import { canReadSample } from '../../policies/samples';
import { presentOwnSample, presentSample, presentSampleListItem, toIso as iso } from './samples.presenter';
import { customerUsage, findSampleDetail, insertSubmittedSample, listOwnSamples } from './samples.queries';
import {
  receiveSampleSubmission,
  removeStoredFiles,
  storageFullMessage,
  submissionsPerHourMessage,
} from './samples.upload';

const NOT_FOUND = 'Sample not found';

/** GET /api/samples, POST /api/samples, GET /api/samples/{id} (spec §7, CONTRACT §2, §4). */
export function samplesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/samples',
      {
        serializerCompiler: presentedJson,
        schema: {
          tags: ['samples'],
          summary: "The caller's own samples, newest first",
          security: [{ bearer: [] }],
          description:
            'Each row: id, itemName, category, status, urgencyLevel, submissionDate, lastUpdated, reportGenerated, reportCode, reportRevokedAt and the four service flags; the full record is GET /api/samples/{id}.',
          response: { 200: z.array(ownSampleListItem), 401: errorResponse },
        },
      },
      async (request) => {
        const rows = await listOwnSamples(deps.db, currentUser(request).id);
        return rows.map(presentOwnSample);
      },
    );

    app.post(
      '/api/samples',
      {
        schema: {
          tags: ['samples'],
          summary: 'Submit a sample (multipart: the form fields, repeated photos and documents)',
          description:
            'Booleans as text. Photos: JPEG, PNG or HEIC by content; documents: PDF, DOC, DOCX, JPG, PNG; ' +
            'at most 10 of each, 5 MB each. A refused submission stores nothing.',
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
        // Per-customer limits (docs/product/security.md), checked before a byte is stored.
        let budget: { remaining: number; limit: number } | undefined;
        if (deps.config.rateLimits) {
          const { customerSubmissionsPerHour: perHour, customerStorageBytes: limit } = deps.config;
          const usage = await customerUsage(deps.db, user.id);
          if (usage.recent >= perHour)
            throw new AppError(429, submissionsPerHourMessage(perHour), undefined, { 'retry-after': '600' });
          if (usage.bytes >= limit) throw new AppError(413, storageFullMessage(limit));
          budget = { remaining: limit - usage.bytes, limit };
        }
        const { fields, files } = await receiveSampleSubmission(request, deps.storage, budget);
        try {
          const parsed = sampleSubmissionFields.safeParse(fields);
          const errors = parsed.success
            ? []
            : parsed.error.issues.map((i) => ({ path: i.path.join('.') || 'body', message: i.message }));
          if (!files.some((f) => f.fileCategory === 'photo'))
            errors.unshift({ path: 'photos', message: SAMPLE_SUBMISSION_MESSAGES.photoRequired });
          if (!parsed.success || errors.length)
            throw badRequest(errors[0]?.message ?? 'Invalid sample', errors);
          const v = parsed.data;
          const isRepresentative = !v.isPersonalSubmission;
          const created = await insertSubmittedSample(
            deps.db,
            {
              userId: user.id,
              submitterName: v.submitterName,
              submitterEmail: v.submitterEmail,
              submitterPhone: v.submitterPhone,
              submitterCountry: v.submitterCountry,
              isPersonalSubmission: v.isPersonalSubmission,
              isRepresentative,
              representativeName: isRepresentative ? v.representativeName : null,
              representativeEmail: isRepresentative ? v.representativeEmail : null,
              relationshipToOwner: isRepresentative ? v.relationshipToOwner : null,
              representativeRelation: isRepresentative ? v.relationshipToOwner : null,
              // The owner the representative acts for: the name given, else the submitter's name.
              clientName: isRepresentative ? (v.clientName ?? v.submitterName) : null,
              itemName: v.itemName,
              category: v.category,
              estimatedAge: v.estimatedAge,
              description: v.description,
              dimensions: v.dimensions,
              weight: v.weight,
              materials: v.materials,
              expertValuation: v.expertValuation,
              authenticityCheck: v.authenticityCheck,
              conditionAssessment: v.conditionAssessment,
              provenanceResearch: v.provenanceResearch,
              purposeOfValuation: v.purposeOfValuation,
              urgencyLevel: v.urgencyLevel,
              estimatedValueRange: v.estimatedValueRange,
              specialInstructions: v.specialInstructions,
            },
            files.map(({ key: _key, ...f }) => f),
            (sampleId) =>
              deps.mailer.render(deps.db, user.email, 'sampleSubmitted', {
                firstName: user.firstName,
                displayId: displaySampleId(sampleId),
                itemName: v.itemName,
                sampleUrl: deps.mailer.url(`/sample/${sampleId}`),
              }),
          );
          reply.code(201);
          return presentSample(created.sample);
        } catch (err) {
          await removeStoredFiles(deps.storage, files);
          throw err;
        }
      },
    );

    app.get(
      '/api/samples/:id',
      {
        serializerCompiler: presentedJson,
        schema: {
          tags: ['samples'],
          summary: 'One sample with files, report elements, status history, owner and assigned staff',
          security: [{ bearer: [] }],
          params: idParams,
          response: { 200: sampleDetail, 400: errorResponse, 401: errorResponse, 404: errorResponse },
        },
      },
      async (request): Promise<SampleDetail> => {
        const user = currentUser(request);
        const found = await findSampleDetail(deps.db, request.params.id);
        if (!found || !canReadSample(user, found.sample)) throw notFound(NOT_FOUND);
        return {
          ...presentSampleListItem(found.sample, found.user, found.assignedStaff),
          files: found.files.map((f) => ({
            id: f.id,
            sampleId: f.sampleId,
            fileName: f.fileName,
            originalName: f.originalName,
            fileType: f.fileType,
            fileSize: f.fileSize,
            fileCategory: f.fileCategory === 'document' ? 'document' : 'photo',
            uploadDate: iso(f.uploadDate),
          })),
          reportElements: found.elements.map((e) => ({
            id: e.id,
            sampleId: e.sampleId,
            element: e.element,
            percentage: Number(e.percentage),
            purity: e.purity,
            quality: e.quality,
            notes: e.notes,
            createdAt: iso(e.createdAt),
          })),
          statusHistory: found.history.map((h) => ({
            id: h.id,
            status: h.status,
            comment: h.comment,
            createdAt: iso(h.createdAt),
            updatedBy: h.authorId
              ? { id: h.authorId, firstName: h.authorFirstName, lastName: h.authorLastName }
              : null,
          })),
        };
      },
    );
  };
}
