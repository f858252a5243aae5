import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PHOTO_JPEG, PHOTO_PNG } from '../../tests/support/factories';
import { bombJpeg, bombPng, largeJpeg, rotatedJpeg, transparentPng } from '../../tests/fixtures/photos';
import { readImageHeaderSize, readJpegSize, readPngSize } from './image-header';

const sharpSize = async (image: Buffer) => {
  const { width, height } = await sharp(image).metadata();
  return { width, height };
};

describe('the size a JPEG or PNG header declares', () => {
  it('is what sharp (libvips) reads, for real files: EXIF and colour profile before the frame, progressive, PNG with alpha', async () => {
    const progressive = await sharp(await largeJpeg(640, 480))
      .jpeg({ progressive: true })
      .toBuffer();
    const withProfile = await sharp(await rotatedJpeg(60, 40))
      .withMetadata()
      .jpeg()
      .toBuffer();
    const jpegs = [
      PHOTO_JPEG,
      await rotatedJpeg(60, 40),
      await largeJpeg(4000, 3000),
      progressive,
      withProfile,
    ];
    for (const jpeg of jpegs) expect(readJpegSize(jpeg)).toEqual(await sharpSize(jpeg));
    for (const png of [PHOTO_PNG, await transparentPng(50, 30)])
      expect(readPngSize(png)).toEqual(await sharpSize(png));
  });

  it('reads what a bomb declares, not what its data holds', async () => {
    expect(readImageHeaderSize(await bombJpeg(9000, 6000), 'image/jpeg')).toEqual({
      width: 9000,
      height: 6000,
    });
    expect(readImageHeaderSize(bombPng(8192, 8192), 'image/png')).toEqual({ width: 8192, height: 8192 });
  });

  it('skips fill bytes and markers without a length before the frame header', () => {
    const jpeg = Buffer.from([
      0xff,
      0xd8, // SOI
      0xff,
      0xff,
      0xff,
      0xe0,
      0x00,
      0x04,
      0x00,
      0x00, // fill bytes, APP0 with 2 bytes of data
      0xff,
      0xd0, // RST0 (no length)
      0xff,
      0xc2,
      0x00,
      0x0b,
      0x08,
      0x01,
      0x2c,
      0x02,
      0x58,
      0x01,
      0x01,
      0x11,
      0x00, // SOF2 300×600
    ]);
    expect(readJpegSize(jpeg)).toEqual({ width: 600, height: 300 });
  });

  it('answers null (sharp decides) when the header is not plainly there', async () => {
    const photo = await rotatedJpeg(60, 40); // baseline (SOF0), EXIF before it
    const sof = photo.indexOf(Buffer.from([0xff, 0xc0]));
    expect(sof).toBeGreaterThan(0);
    expect(readJpegSize(photo.subarray(0, sof + 6))).toBeNull(); // cut inside the frame header
    expect(readJpegSize(photo.subarray(0, sof))).toBeNull(); // cut before it
    const noHeight = Buffer.from(photo);
    noHeight.writeUInt16BE(0, sof + 5); // height given later by a DNL marker
    expect(readJpegSize(noHeight)).toBeNull();
    // A scan before any frame header, a damaged segment length, not a JPEG at all.
    expect(readJpegSize(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x08, 0, 0, 0, 0, 0, 0]))).toBeNull();
    expect(
      readJpegSize(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(500, 9)])),
    ).toBeNull();
    expect(readJpegSize(Buffer.from([0xff, 0xd8, 0x00, 0x00, 0xff, 0xc0]))).toBeNull();
    expect(readJpegSize(PHOTO_PNG)).toBeNull();
    // A PNG without its IHDR first, or with a zero width.
    const png = Buffer.from(PHOTO_PNG);
    png.write('IHDX', 12, 'latin1');
    expect(readPngSize(png)).toBeNull();
    const zero = Buffer.from(PHOTO_PNG);
    zero.writeUInt32BE(0, 16);
    expect(readPngSize(zero)).toBeNull();
    expect(readPngSize(photo)).toBeNull();
    // Other types are always left to sharp or their own reader.
    expect(readImageHeaderSize(PHOTO_JPEG, 'image/heic')).toBeNull();
  });
});
