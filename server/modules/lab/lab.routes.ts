import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../common/contracts/errors';
import {
  type LabSettings,
  type LabSettingsParsed,
  labSettingsRequest,
  labSettingsResponse,
} from '../../../common/contracts/lab';
import { inMegabytes, MAX_IMAGE_BYTES } from '../../../common/domain/uploads';
import { appraisalTerms } from '../../../common/domain/appraisal';
import { sanitizeNotes } from '../reports/notes-sanitizer';

import { DEFAULT_FLAG_HELD_DAYS } from '../../../common/domain/custody';
import type { AppDeps } from '../../app-deps';
import { changedFields, recordAudit } from '../../audit/audit';
import { auditContext } from '../../audit/request';
import { requirePermission } from '../../plugins/auth';
import { badRequest, fieldErrors, invalidPayload } from '../../plugins/errors';
import { type ImageUpload, readImageUpload } from '../../plugins/image-upload';
import { assertCleanText } from '../../plugins/text-guard';
import { canManageLabSettings } from '../../policies/lab';
import { presentPriceSettings, priceSettingsValues } from '../quotes/price-list';
import { type LabSettingsRow, readLabSettings } from '../../db/lab-settings';
import { saveLabSettings } from './lab.queries';

/** The settings' own columns (the price list is stored by `priceSettingsValues`). */
function labFields({ prices: _p, urgentSurchargePercent: _u, currency: _c, ...rest }: LabSettingsParsed) {
  // The templates are rich text, cleaned like every note (a blank one means the default text).
  const clean = (html: string | null | undefined) => (html === undefined ? undefined : sanitizeNotes(html));
  return {
    ...rest,
    certificationTemplate: clean(rest.certificationTemplate),
    limitingConditionsTemplate: clean(rest.limitingConditionsTemplate),
  };
}

const LOGO_PREFIX = 'logo/';

export function presentLabSettings(row: LabSettingsRow | undefined): LabSettings {
  return {
    labName: row?.labName ?? null,
    address: row?.address ?? null,
    phone: row?.phone ?? null,
    email: row?.email ?? null,
    website: row?.website ?? null,
    certificationNumber: row?.certificationNumber ?? null,
    logo: row?.logo ? `/Uploads/${row.logo}` : null,
    require2faForStaff: row?.require2faForStaff ?? false,
    requireReview: row?.requireReview ?? false,
    paymentInstructions: row?.paymentInstructions ?? null,
    paymentLink: row?.paymentLink ?? null,
    ...appraisalTerms(row),

    flagHeldDaysAfterCompletion: row?.flagHeldDaysAfterCompletion ?? DEFAULT_FLAG_HELD_DAYS,
    ...presentPriceSettings(row),
  };
}

/** Reads the multipart body: the 'settings' JSON part and an optional 'logo' image. */
async function readSettingsForm(
  request: FastifyRequest,
): Promise<{ settings: unknown; logo: ImageUpload | null }> {
  if (!request.isMultipart()) throw badRequest("Expected multipart form data with a 'settings' part");
  let settingsText: string | null = null;
  let logo: ImageUpload | null = null;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname === 'logo' && !logo) logo = await readImageUpload(part);
      else part.file.resume();
    } else if (part.fieldname === 'settings') {
      settingsText = String(part.value ?? '');
    }
  }
  if (settingsText === null) throw badRequest("The 'settings' part is required");
  let settings: unknown;
  try {
    settings = JSON.parse(settingsText);
  } catch {
    throw badRequest("The 'settings' part must be JSON");
  }
  assertCleanText(settings, 'settings');
  return { settings, logo };
}

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
        let newLogoKey: string | null = null;
        if (form.logo) {
          newLogoKey = `${LOGO_PREFIX}${randomBytes(16).toString('hex')}.${form.logo.ext}`;
          await deps.storage.put(newLogoKey, form.logo.buffer);
        }
        let saved: { row: LabSettingsRow; oldLogo: string | null };
        try {
          saved = await deps.db.transaction(async (tx) => {
            const current = await readLabSettings(tx);
            const row = await saveLabSettings(tx, {
              ...labFields(parsed.data),
              ...priceSettingsValues(parsed.data, current),
              ...(newLogoKey ? { logo: newLogoKey } : {}),
            });
            const changed = changedFields(presentLabSettings(current), presentLabSettings(row));
            if (changed)
              await recordAudit(tx, {
                ...auditContext(request),
                action: 'lab.settings_changed',
                subject: { type: 'lab_settings', id: row.id },
                ...changed,
              });
            return { row, oldLogo: current?.logo ?? null };
          });
        } catch (err) {
          if (newLogoKey) await deps.storage.delete(newLogoKey).catch(() => {});
          throw err;
        }
        const { row, oldLogo } = saved;
        if (newLogoKey && oldLogo && oldLogo !== newLogoKey && oldLogo.startsWith(LOGO_PREFIX)) {
          await deps.storage
            .delete(oldLogo)
            .catch((err) => request.log.warn({ err }, 'old logo not removed'));
        }
        return presentLabSettings(row);
      },
    );
  };
}
