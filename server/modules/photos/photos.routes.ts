import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../common/contracts/errors';
import { photoCopyParams, reportPhotoParams } from '../../../common/contracts/photos';
import type { PhotoCopyVariant } from '../../../common/domain/photos';
import type { AppDeps } from '../../app-deps';
import { currentUser } from '../../plugins/auth';
import { notFound } from '../../plugins/errors';
import { canReadSampleFiles, type SampleAccess } from '../../policies/samples';
import { photoCopyKey } from './make-photo-copies';
import { registerPhotoCopiesJob } from './photo-copies.job';
import { normalizeReportCode } from '../../../common/domain/reports';
import { findPhotoFile, findReportPhoto, type PhotoFile } from './photos.queries';

const NOT_FOUND = 'Photo not found';

/**
 * GET /Uploads/photos/{id}/{thumbnail|display}: a photo's copies for the screens, to whoever may read
 * the sample (docs/product/roles-and-access.md). GET /api/public/reports/{code}/photos/{id}: the display
 * copy of a photo an issued report shows, for its public verification. The original stays at
 * /Uploads/{fileName}.
 */
export function photosRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    registerPhotoCopiesJob(deps.jobs, {
      db: deps.db,
      storage: deps.storage,
      log: app.log,
      copier: deps.photoCopier,
    });

    const sendCopy = async (
      reply: FastifyReply,
      photo: PhotoFile | undefined,
      variant: PhotoCopyVariant,
      mayRead: (sample: SampleAccess) => boolean,
      cacheControl: string,
    ) => {
      if (
        !photo ||
        photo.fileCategory !== 'photo' ||
        !mayRead({ userId: photo.ownerId, assignedStaffId: photo.assignedStaffId })
      )
        throw notFound(NOT_FOUND);
      // Copies not made yet (or never makeable) are simply not there; the sample answer says which.
      if (photo.copiesState !== 'ready') throw notFound(NOT_FOUND);
      const key = photoCopyKey(photo.fileName, variant);
      if (!(await deps.storage.exists(key))) throw notFound(NOT_FOUND);
      const base = photo.originalName.replace(/\.[^.]*$/, '').replace(/[^\w.\- ]/g, '_') || 'photo';
      return reply
        .header('content-type', 'image/jpeg')
        .header('content-disposition', `inline; filename="${base}-${variant}.jpg"`)
        .header('cache-control', cacheControl)
        .header('x-content-type-options', 'nosniff')
        .send(await deps.storage.get(key));
    };

    app.get(
      '/Uploads/photos/:id/:variant',
      { schema: { hide: true, params: photoCopyParams } },
      async (request, reply) => {
        const user = currentUser(request);
        const { id, variant } = request.params;
        return sendCopy(
          reply,
          await findPhotoFile(deps.db, id),
          variant,
          (sample) => canReadSampleFiles(user, sample),
          'private, max-age=3600',
        );
      },
    );

    app.get(
      '/api/public/reports/:code/photos/:id',
      {
        config: { public: true },
        schema: {
          tags: ['verification'],
          summary:
            "The display copy of a photo an issued report shows (public: the verification answer's links)",
          description:
            'Code trimmed and upper-cased as for verification. 404 unless the photo is one the current issued revision of that report shows.',
          params: reportPhotoParams,
          response: { 400: errorResponse, 404: errorResponse },
        },
      },
      async (request, reply) => {
        const { code, id } = request.params;
        const photo = await findReportPhoto(deps.db, normalizeReportCode(code), id);
        return sendCopy(reply, photo, 'display', () => true, 'public, max-age=3600');
      },
    );
  };
}
