import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps';
import { currentUser } from '../../plugins/auth';
import { notFound } from '../../plugins/errors';
import { canReadLabLogo } from '../../policies/lab';
import { canReadSampleFiles } from '../../policies/samples';
import { canReadPersonalImage } from '../../policies/users';
import { findImageOwner, findSampleFile, isLabLogo } from './files.queries';

const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;
const fileName = z.string().regex(FILE_NAME, 'Invalid file name');
const NOT_FOUND = 'File not found';

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  heic: 'image/heic',
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};
const typeOf = (name: string) =>
  CONTENT_TYPES[name.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';

/** GET /Uploads/{fileName}, /Uploads/{profile|signature|logo}/{name}: authorized, never public. */
export function filesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const send = async (
      reply: import('fastify').FastifyReply,
      key: string,
      contentType: string,
      downloadName: string,
    ) => {
      if (!(await deps.storage.exists(key))) throw notFound(NOT_FOUND);
      reply
        .header('content-type', contentType)
        .header('content-disposition', `inline; filename="${downloadName.replace(/[^\w.\- ]/g, '_')}"`)
        .header('cache-control', 'private, max-age=300')
        .header('x-content-type-options', 'nosniff');
      return reply.send(await deps.storage.get(key));
    };

    app.get(
      '/Uploads/:fileName',
      { schema: { hide: true, params: z.object({ fileName }) } },
      async (request, reply) => {
        const user = currentUser(request);
        const row = await findSampleFile(deps.db, request.params.fileName);
        if (!row || !canReadSampleFiles(user, row)) throw notFound(NOT_FOUND);
        return send(
          reply,
          `uploads/${row.file.fileName}`,
          row.file.fileType || typeOf(row.file.fileName),
          row.file.originalName,
        );
      },
    );

    app.get(
      '/Uploads/:folder/:name',
      {
        schema: {
          hide: true,
          params: z.object({ folder: z.enum(['profile', 'signature', 'logo']), name: fileName }),
        },
      },
      async (request, reply) => {
        const user = currentUser(request);
        const { folder, name } = request.params;
        const key = `${folder}/${name}`;
        if (folder === 'logo') {
          if (!(await isLabLogo(deps.db, key)) || !canReadLabLogo(user)) throw notFound(NOT_FOUND);
        } else {
          const owner = await findImageOwner(deps.db, folder, key);
          if (!owner || !canReadPersonalImage(user, owner)) throw notFound(NOT_FOUND);
        }
        return send(reply, key, typeOf(name), name);
      },
    );
  };
}
