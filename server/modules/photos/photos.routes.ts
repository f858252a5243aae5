import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../common/contracts/errors';
import { photoCopyParams, publicPhotoQuery } from '../../../common/contracts/photos';
import type { PhotoCopyVariant } from '../../../common/domain/photos';
import type { AppDeps } from '../../app-deps';
import { currentUser } from '../../plugins/auth';
import { notFound } from '../../plugins/errors';
import { canReadSampleFiles, type SampleAccess } from '../../policies/samples';
import { photoCopyKey } from './make-photo-copies';
import { registerPhotoCopiesJob } from './photo-copies.job';
import { findPhotoFile } from './photos.queries';
import { z } from 'zod';

const NOT_FOUND = 'Photo not found';

/**
 * GET /Uploads/photos/{id}/{thumbnail|display}: a photo's copies for the screens, to whoever may read
 * the sample (docs/product/roles-and-access.md). GET /api/public/photos/{id}/display: the display copy
 * through a link the server signed for public verification. The original stays at /Uploads/{fileName}.
 */
export function photosRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    registerPhotoCopiesJob(deps.jobs, { db: deps.db, storage: deps.storage, log: app.log });

    const sendCopy = async (
      reply: FastifyReply,
      fileId: number,
      variant: PhotoCopyVariant,
      mayRead: (sample: SampleAccess) => boolean,
      cacheControl: string,
    ) => {
      const photo = await findPhotoFile(deps.db, fileId);
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
          id,
          variant,
          (sample) => canReadSampleFiles(user, sample),
          'private, max-age=3600',
        );
      },
    );

    app.get(
      '/api/public/photos/:id/display',
      {
        config: { public: true },
        schema: {
          tags: ['verification'],
          summary: "A report photo's display copy, through a signed link from the verification answer",
          params: z.object({ id: photoCopyParams.shape.id }),
          querystring: publicPhotoQuery,
          response: { 400: errorResponse, 404: errorResponse },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const { expires, signature } = request.query;
        if (!deps.photoLinks.verify(id, expires, signature)) throw notFound(NOT_FOUND);
        return sendCopy(reply, id, 'display', () => true, 'public, max-age=3600');
      },
    );
  };
}
