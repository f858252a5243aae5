import { randomBytes } from 'node:crypto';
import type { LabSettingsParsed } from '../../../common/contracts/lab';
import type { AppDeps } from '../../app-deps';
import { type AuditWho, changedFields, recordAudit } from '../../audit/audit';
import { type LabSettingsRow, readLabSettings } from '../../db/lab-settings';
import type { ImageUpload } from '../../plugins/image-upload';
import { priceSettingsValues } from '../quotes/price-list';
import { sanitizeNotes } from '../reports/notes-sanitizer';
import { presentLabSettings } from './lab.presenter';
import { writeLabSettings } from './lab.queries';

const LOGO_PREFIX = 'logo/';

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

/**
 * An admin saves the lab settings (docs/product/roles-and-access.md), with an optional new logo: the
 * logo is stored first (and removed again if the save fails), the settings and the audit event of
 * what changed commit together, and the logo it replaced leaves storage afterwards (a failure to
 * remove it is only reported through `warn`).
 */
export async function saveLabSettings(
  deps: Pick<AppDeps, 'db' | 'storage'>,
  who: AuditWho,
  settings: LabSettingsParsed,
  logo: ImageUpload | null,
  warn: (err: unknown) => void,
): Promise<LabSettingsRow> {
  let newLogoKey: string | null = null;
  if (logo) {
    newLogoKey = `${LOGO_PREFIX}${randomBytes(16).toString('hex')}.${logo.ext}`;
    await deps.storage.put(newLogoKey, logo.buffer);
  }
  let saved: { row: LabSettingsRow; oldLogo: string | null };
  try {
    saved = await deps.db.transaction(async (tx) => {
      const current = await readLabSettings(tx);
      const row = await writeLabSettings(tx, {
        ...labFields(settings),
        ...priceSettingsValues(settings, current),
        ...(newLogoKey ? { logo: newLogoKey } : {}),
      });
      const changed = changedFields(presentLabSettings(current), presentLabSettings(row));
      if (changed)
        await recordAudit(tx, {
          ...who,
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
    await deps.storage.delete(oldLogo).catch(warn);
  }
  return row;
}
