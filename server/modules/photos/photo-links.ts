import type { PhotoCopyFields } from '../../../common/contracts/photos';
import type { PhotoCopyVariant } from '../../../common/domain/photos';

// Where the screens fetch a photo's copies, and the token-free paths public verification hands out.

/** The bearer-protected path of one copy (owner, staff, admin: docs/product/roles-and-access.md). */
export const photoCopyPath = (fileId: number, variant: PhotoCopyVariant) =>
  `/Uploads/photos/${fileId}/${variant}`;

/** What the sample answers say about one file's copies. */
export function presentPhotoCopies(file: {
  id: number;
  fileCategory: string;
  copiesState: string | null;
}): PhotoCopyFields {
  const ready = file.fileCategory === 'photo' && file.copiesState === 'ready';
  return {
    thumbnailUrl: ready ? photoCopyPath(file.id, 'thumbnail') : null,
    displayUrl: ready ? photoCopyPath(file.id, 'display') : null,
    processing: file.fileCategory === 'photo' && file.copiesState === 'pending',
  };
}

/**
 * The token-free path of a photo an issued report shows, for its public verification answer. The
 * report's code opens it, as it opens the verification itself; the route serves the photo only while
 * the report's current revision shows it (docs/product/photos.md). No signature to compute per answer,
 * and one stable URL per photo, so browsers cache it.
 */
export const reportPhotoPath = (reportCode: string, fileId: number) =>
  `/api/public/reports/${encodeURIComponent(reportCode)}/photos/${fileId}`;
