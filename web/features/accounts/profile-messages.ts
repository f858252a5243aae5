import { INVALID_PROFILE_DATA, SIGNATURE_RESTRICTED_MESSAGE } from '../../../common/contracts/accounts';
import { IMAGE_MIME_TYPES, MAX_IMAGE_BYTES } from '../../../common/domain/uploads';
import { HttpError } from '../../lib/api';

// Every text below is a documented one (docs/product/messages.md).
export const PROFILE_TEXT = {
  wrongType: 'Only JPEG or PNG files are allowed',
  tooLarge: 'File size must be less than 2MB',
  tooLargeServer: 'File size exceeds 2MB limit or too many files uploaded',
  signatureRestricted: SIGNATURE_RESTRICTED_MESSAGE,
  invalidData: 'Invalid profile data provided',
  updateFailed: 'Failed to update profile',
  imagesFailed: 'Failed to load profile picture or signature',
  loadFailed: 'Failed to load profile',
  loaded: 'Loaded from database',
  saved: 'Profile updated',
} as const;

export const IMAGE_ACCEPT = IMAGE_MIME_TYPES.join(',');

/** The words of docs/product/messages.md for a refused profile update. */
export function profileUpdateError(err: unknown): string {
  if (err instanceof HttpError) {
    const message = err.serverMessage ?? '';
    if (err.status === 413) return PROFILE_TEXT.tooLargeServer;
    if (/signature/i.test(message) && /admin or staff/i.test(message))
      return PROFILE_TEXT.signatureRestricted;
    if (message.includes(INVALID_PROFILE_DATA)) return PROFILE_TEXT.invalidData;
    return message || err.message;
  }
  return err instanceof Error ? err.message : PROFILE_TEXT.updateFailed;
}

/** A client-side check of a chosen image, with the documented messages; null when it is fine. */
export function imageProblem(file: { type: string; size: number }): string | null {
  if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) return PROFILE_TEXT.wrongType;
  if (file.size >= MAX_IMAGE_BYTES) return PROFILE_TEXT.tooLarge;
  return null;
}
