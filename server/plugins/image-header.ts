// The size a JPEG or PNG declares, read from its header in TypeScript: the frame header (SOFn) a
// JPEG decoder reads before anything else of its picture, or a PNG's IHDR chunk. What the upload's
// declared-size check (./image-size.ts) reads first, on every photo of every submission, without a
// round trip through sharp (libvips) on the event loop. null when the header is not plainly there
// (truncated, unusual, damaged): the caller then asks sharp, as it always did.

export type HeaderSize = { width: number; height: number };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Start-of-frame markers: baseline, extended, progressive, lossless; Huffman or arithmetic coded. */
const isFrameHeader = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

export function readJpegSize(image: Buffer): HeaderSize | null {
  if (image.length < 4 || image[0] !== 0xff || image[1] !== 0xd8) return null;
  let pos = 2;
  while (pos + 4 <= image.length) {
    if (image[pos] !== 0xff) return null;
    // Any number of 0xFF fill bytes may precede a marker.
    while (image[pos + 1] === 0xff && pos + 2 < image.length) pos += 1;
    const marker = image[pos + 1] as number;
    // Markers without a length: RSTn and TEM.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      pos += 2;
      continue;
    }
    // A second SOI, the end of the image or the scan itself before any frame header: not plain.
    if (marker === 0xd8 || marker === 0xd9 || marker === 0xda) return null;
    if (pos + 4 > image.length) return null;
    const length = image.readUInt16BE(pos + 2);
    if (length < 2) return null;
    if (isFrameHeader(marker)) {
      // FF Cn, length, sample precision, number of lines, samples per line.
      if (length < 8 || pos + 9 > image.length) return null;
      const height = image.readUInt16BE(pos + 5);
      const width = image.readUInt16BE(pos + 7);
      // Zero lines: the height comes later (DNL marker); leave it to sharp.
      return width > 0 && height > 0 ? { width, height } : null;
    }
    pos += 2 + length;
  }
  return null;
}

export function readPngSize(image: Buffer): HeaderSize | null {
  if (image.length < 24 || !image.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  if (image.toString('latin1', 12, 16) !== 'IHDR') return null;
  const width = image.readUInt32BE(16);
  const height = image.readUInt32BE(20);
  return width > 0 && height > 0 ? { width, height } : null;
}

/** The declared size of a JPEG or PNG (by its sniffed type), or null: ask sharp. */
export function readImageHeaderSize(image: Buffer, mime: string): HeaderSize | null {
  if (mime === 'image/jpeg') return readJpegSize(image);
  if (mime === 'image/png') return readPngSize(image);
  return null;
}
