import type { LabSettings } from '../../../common/contracts/lab';
import { appraisalTerms } from '../../../common/domain/appraisal';
import { DEFAULT_FLAG_HELD_DAYS } from '../../../common/domain/custody';
import type { LabSettingsRow } from '../../db/lab-settings';
import { presentPriceSettings } from '../quotes/quotes.presenter';

/** The lab settings as GET and POST /api/lab/settings answer them (defaults for what is not set). */
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
