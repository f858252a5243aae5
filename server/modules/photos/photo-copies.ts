import decodeHeic from 'heic-decode';
import sharp, { type Sharp } from 'sharp';
import { readHeifDimensions } from '../../plugins/heif-header';
import { DISPLAY_MAX_PX, THUMBNAIL_MAX_PX } from '../../../common/domain/photos';
import { MAX_IMAGE_PIXELS } from '../../../common/domain/uploads';
import { UnreadablePhotoError } from './photo-errors';

// Makes a photo's display copies with sharp (libvips). What leaves here is a fresh JPEG: the pixels
// turned upright by the EXIF orientation, the ICC colour profile kept, and nothing else of the
// original's metadata (no EXIF, GPS, XMP, IPTC, maker notes). docs/product/photos.md

export type PhotoCopies = {
  thumbnail: Buffer;
  display: Buffer;
  /** Size of the display copy. */
  width: number;
  height: number;
};

export { UnreadablePhotoError };

const THUMBNAIL_QUALITY = 75;
const DISPLAY_QUALITY = 82;

const isHeic = (mime: string) => mime === 'image/heic' || mime === 'image/heif';

/**
 * sharp's bundled libvips does not decode HEVC-coded HEIC, so HEIC goes through libheif (compiled to
 * WebAssembly in heic-decode) to raw RGBA first; the transformations stored in the file (rotation,
 * mirroring, crop) are applied by the decoder. JPEG and PNG go to sharp directly.
 */
async function openOriginal(original: Buffer, mime: string): Promise<Sharp> {
  if (isHeic(mime)) {
    // The same limit as the upload's, read again here: libheif allocates what the header says.
    let size: ReturnType<typeof readHeifDimensions>;
    try {
      size = readHeifDimensions(original);
    } catch (err) {
      throw new UnreadablePhotoError(`HEIC header not readable: ${(err as Error).message}`);
    }
    if (size.largestPixels > MAX_IMAGE_PIXELS)
      throw new UnreadablePhotoError(`HEIC declares ${size.width}×${size.height} pixels`);
    let decoded: Awaited<ReturnType<typeof decodeHeic>>;
    try {
      decoded = await decodeHeic({ buffer: original });
    } catch (err) {
      throw new UnreadablePhotoError(`HEIC not decodable: ${(err as Error).message}`);
    }
    return sharp(Buffer.from(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength), {
      raw: { width: decoded.width, height: decoded.height, channels: 4 },
      limitInputPixels: MAX_IMAGE_PIXELS,
    });
  }
  // Lenient: a photo with a damaged tail still gets copies of what decodes; only an unreadable header fails.
  // limitInputPixels: the upload refused larger images already; sharp refuses them again by itself.
  return sharp(original, { failOn: 'none', limitInputPixels: MAX_IMAGE_PIXELS }).autoOrient();
}

function jpegCopy(image: Sharp, maxPx: number, quality: number): Sharp {
  return (
    image
      .clone()
      .resize(maxPx, maxPx, { fit: 'inside', withoutEnlargement: true })
      // Transparent PNG areas become white rather than JPEG's black.
      .flatten({ background: '#ffffff' })
      .keepIccProfile()
      .jpeg({ quality, mozjpeg: true })
  );
}

/** Both copies of one original. Throws UnreadablePhotoError for a file that is not a readable image. */
export async function makePhotoCopies(original: Buffer, mime: string): Promise<PhotoCopies> {
  const image = await openOriginal(original, mime);
  try {
    const [display, thumbnail] = await Promise.all([
      jpegCopy(image, DISPLAY_MAX_PX, DISPLAY_QUALITY).toBuffer({ resolveWithObject: true }),
      jpegCopy(image, THUMBNAIL_MAX_PX, THUMBNAIL_QUALITY).toBuffer(),
    ]);
    return { display: display.data, thumbnail, width: display.info.width, height: display.info.height };
  } catch (err) {
    if (err instanceof UnreadablePhotoError) throw err;
    // libvips reports undecodable input as a plain Error from toBuffer.
    throw new UnreadablePhotoError(`image not decodable: ${(err as Error).message.split('\n')[0]}`);
  }
}
