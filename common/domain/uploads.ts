// Upload limits of docs/product/limits.md, used by the server's checks and the web app's hints.

export const MAX_SAMPLE_PHOTOS = 10;
export const MAX_SAMPLE_DOCUMENTS = 10;
export const MAX_SAMPLE_FILE_BYTES = 5 * 1024 * 1024;
/** Profile image, signature and logo: "under 2MB". */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** A byte limit as the whole megabytes texts quote ('5MB'). */
export const inMegabytes = (bytes: number) => bytes / (1024 * 1024);

/** Detected content types (by magic bytes) accepted for each kind of upload. */
export const PHOTO_MIME_TYPES = ['image/jpeg', 'image/png', 'image/heic', 'image/heif'] as const;
export const DOCUMENT_MIME_TYPES = [
  'application/pdf',
  'application/msword',
  'application/x-cfb',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'image/jpeg',
  'image/png',
] as const;
export const IMAGE_MIME_TYPES = ['image/jpeg', 'image/png'] as const;

export const PHOTO_ACCEPT = 'image/*';
export const DOCUMENT_ACCEPT = '.pdf,.doc,.docx,.jpg,.jpeg,.png';

/**
 * The most pixels an uploaded image (photo, image document, profile image, signature, logo) may
 * declare: checked from the file's header before anything decodes it (docs/product/security.md).
 * A 48-megapixel phone camera fits; an 8192×8192 "decompression bomb" does not.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;
export const MAX_IMAGE_MEGAPIXELS = MAX_IMAGE_PIXELS / 1_000_000;
export const imageTooLargeMessage = (width: number, height: number) =>
  `Images must be at most ${MAX_IMAGE_MEGAPIXELS} megapixels; this one is ${width} × ${height} pixels`;
