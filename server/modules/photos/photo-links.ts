import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PhotoCopyFields } from '../../../common/contracts/photos';
import type { PhotoCopyVariant } from '../../../common/domain/photos';

// Where the screens fetch a photo's copies, and the token-free links public verification hands out.

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

const DAY_SECONDS = 86_400;

export type PublicPhotoLinks = {
  /**
   * A path that serves the photo's display copy without a token, e.g. for the photos a report shows
   * on its public verification page. Valid until the end of the next UTC day; within one day every
   * call gives the same link, so browsers can cache the image.
   */
  displayPath(fileId: number, now?: Date): string;
  /** True when the signature is the server's own for this photo and `expires` has not passed. */
  verify(fileId: number, expires: number, signature: string, now?: Date): boolean;
};

/** How many links of the current day are kept (about 150 bytes each). */
const REMEMBERED_LINKS = 10_000;

/** Signed with a key derived from the token secret, so links survive a restart and every instance agrees. */
export function createPublicPhotoLinks(secret: string): PublicPhotoLinks {
  const key = createHmac('sha256', secret).update('public photo links v1').digest();
  const sign = (fileId: number, expires: number) =>
    createHmac('sha256', key).update(`${fileId}.${expires}`).digest('base64url');
  // A link is the same all day, so each is signed once a day rather than on every verification (six
  // HMACs per answer were ~5 % of the public verification's CPU; docs/benchmarks.md).
  let linksDay = -1;
  let links = new Map<number, string>();
  return {
    displayPath(fileId, now = new Date()) {
      const today = Math.floor(now.getTime() / 1000 / DAY_SECONDS) * DAY_SECONDS;
      if (today !== linksDay || links.size >= REMEMBERED_LINKS) {
        links = new Map();
        linksDay = today;
      }
      let path = links.get(fileId);
      if (path === undefined) {
        const expires = today + 2 * DAY_SECONDS;
        path = `/api/public/photos/${fileId}/display?expires=${expires}&signature=${sign(fileId, expires)}`;
        links.set(fileId, path);
      }
      return path;
    },
    verify(fileId, expires, signature, now = new Date()) {
      if (expires * 1000 < now.getTime()) return false;
      const expected = Buffer.from(sign(fileId, expires));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}
