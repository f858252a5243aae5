import { imageTooLargeMessage, MAX_IMAGE_PIXELS } from '../../common/domain/uploads';
import { AppError } from './errors';
import { HeifHeaderError, readHeifDimensions } from './heif-header';
import { readImageHeaderSize } from './image-header';

// Every uploaded image's size is read from its header before anything decodes it, and an image
// declaring more than MAX_IMAGE_PIXELS is refused (docs/product/security.md, "Images"): decoding
// allocates what the header declares, so a small file can ask for gigabytes.

/** A grid's tiles are padded at its right and bottom edges, so they may cover a little more. */
const GRID_TILE_ALLOWANCE = 1.25;

export const UNREADABLE_HEIC_MESSAGE =
  'This HEIC image cannot be read: its description of the picture is damaged';

export type DeclaredSize = { width: number; height: number; pixels: number };

/**
 * The size the file's header declares: a JPEG's frame header or a PNG's IHDR read directly
 * (./image-header.ts), else sharp (libvips), which reads headers without decoding; HEIC is read box
 * by box (./heif-header.ts). null for a JPEG or PNG whose header libvips cannot read either (no
 * decoder can then decode it: its copies are marked failed).
 * Throws HeifHeaderError for a HEIC file without a readable description.
 */
export async function declaredImageSize(image: Buffer, mime: string): Promise<DeclaredSize | null> {
  if (mime === 'image/heic' || mime === 'image/heif') {
    const heif = readHeifDimensions(image);
    const tiles = Math.ceil(heif.gridTilePixels / GRID_TILE_ALLOWANCE);
    if (tiles > heif.largestPixels) {
      // Tiles that add up to more than their grid: say so by the area they make the decoder decode.
      const side = Math.ceil(Math.sqrt(tiles));
      return { width: side, height: side, pixels: tiles };
    }
    return { width: heif.width, height: heif.height, pixels: heif.largestPixels };
  }
  const plain = readImageHeaderSize(image, mime);
  if (plain) return { ...plain, pixels: plain.width * plain.height };
  try {
    // sharp (libvips) is loaded only for a header the direct readers above could not read.
    const { default: sharp } = await import('sharp');
    const { width, height } = await sharp(image).metadata();
    if (!width || !height) return null;
    return { width, height, pixels: width * height };
  } catch {
    return null;
  }
}

/**
 * Refuses an image whose header declares more than MAX_IMAGE_PIXELS (413), or a HEIC image whose
 * header cannot be read (415). `image` is the whole uploaded file.
 */
export async function checkDeclaredImageSize(image: Buffer, mime: string): Promise<void> {
  let size: DeclaredSize | null;
  try {
    size = await declaredImageSize(image, mime);
  } catch (err) {
    if (err instanceof HeifHeaderError) throw new AppError(415, UNREADABLE_HEIC_MESSAGE);
    throw err;
  }
  if (size && size.pixels > MAX_IMAGE_PIXELS)
    throw new AppError(413, imageTooLargeMessage(size.width, size.height));
}
