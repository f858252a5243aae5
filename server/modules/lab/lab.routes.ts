import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../common/contracts/errors';
import { labSettingsRequest, labSettingsResponse } from '../../../common/contracts/lab';
import { inMegabytes, MAX_IMAGE_BYTES } from '../../../common/domain/uploads';
import type { AppDeps } from '../../app-deps';
import { auditContext } from '../../audit/request';
import { readLabSettings } from '../../db/lab-settings';
import { requirePermission } from '../../plugins/auth';
import { fieldErrors, invalidPayload } from '../../plugins/errors';
import { canManageLabSettings } from '../../policies/lab';
import { presentLabSettings } from './lab.presenter';
import { saveLabSettings } from './save-lab-settings';
import { readSettingsForm } from './settings-form';

/** Lab settings: GET/POST /api/lab/settings (admin). */
export function labRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const responses = {
      200: labSettingsResponse,
      400: errorResponse,
      401: errorResponse,
      403: errorResponse,
    };

    app.get(
      '/api/lab/settings',
      {
        onRequest: requirePermission(canManageLabSettings),
        schema: {
          tags: ['lab'],
          summary: 'The lab settings',
          security: [{ bearer: [] }],
          response: responses,
        },
      },
      async () => presentLabSettings(await readLabSettings(deps.db)),
    );

    app.post(
      '/api/lab/settings',
      {
        onRequest: requirePermission(canManageLabSettings),
        schema: {
          tags: ['lab'],
          summary: `Save the lab settings: multipart 'settings' (JSON) and optional 'logo' (JPEG/PNG under ${inMegabytes(MAX_IMAGE_BYTES)} MB)`,
          security: [{ bearer: [] }],
          consumes: ['multipart/form-data'],
          response: { ...responses, 413: errorResponse, 415: errorResponse },
        },
      },
      async (request) => {
        const form = await readSettingsForm(request);
        const parsed = labSettingsRequest.safeParse(form.settings);
        if (!parsed.success) throw invalidPayload(fieldErrors(parsed.error.issues));
        const row = await saveLabSettings(deps, auditContext(request), parsed.data, form.logo, (err) =>
          request.log.warn({ err }, 'old logo not removed'),
        );
        return presentLabSettings(row);
      },
    );
  };
}
