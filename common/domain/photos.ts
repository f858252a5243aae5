// The display copies every sample photo gets (docs/product/photos.md). Screens, PDFs and public
// verification show these copies; only the owner, staff and admins can fetch the original.

/** Longest side of the thumbnail copy, in pixels (dashboards, galleries, the submit page). */
export const THUMBNAIL_MAX_PX = 320;
/** Longest side of the display copy, in pixels (the full-size viewer, the report PDF). */
export const DISPLAY_MAX_PX = 1600;

export const PHOTO_COPY_VARIANTS = ['thumbnail', 'display'] as const;
export type PhotoCopyVariant = (typeof PHOTO_COPY_VARIANTS)[number];

/**
 * Where a photo's copies stand: `pending` until the background job made them, `ready` after,
 * `failed` when the file could not be decoded (the original stays downloadable).
 */
export const PHOTO_COPY_STATES = ['pending', 'ready', 'failed'] as const;
export type PhotoCopyState = (typeof PHOTO_COPY_STATES)[number];

/** While copies are being made, screens ask again this often (milliseconds). */
export const PHOTO_PROCESSING_POLL_MS = 2000;
