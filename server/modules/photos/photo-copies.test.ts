import exifReader from 'exif-reader';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DISPLAY_MAX_PX, THUMBNAIL_MAX_PX } from '../../../common/domain/photos';
import {
  heicFixture,
  isBlue,
  isRed,
  largeJpeg,
  pixel,
  rotatedJpeg,
  transparentPng,
} from '../../../tests/fixtures/photos';
import { makePhotoCopies, UnreadablePhotoError } from './photo-copies';

/** Everything a copy must not carry, read back with sharp (and exif-reader for any EXIF block). */
async function expectNoPrivateMetadata(image: Buffer) {
  const meta = await sharp(image).metadata();
  expect(meta.format).toBe('jpeg');
  expect(meta.exif).toBeUndefined();
  expect(meta.xmp).toBeUndefined();
  expect(meta.iptc).toBeUndefined();
  expect(meta.orientation).toBeUndefined();
  return meta;
}

describe('makePhotoCopies', () => {
  it('the fixture really carries GPS, orientation 6, XMP and a colour profile', async () => {
    const meta = await sharp(await rotatedJpeg()).metadata();
    expect(meta.orientation).toBe(6);
    expect(meta.xmp).toBeDefined();
    expect(meta.icc).toBeDefined();
    expect(exifReader(meta.exif as Buffer).GPSInfo?.GPSLatitude).toEqual([48, 51, 24]);
  });

  it('turns an EXIF-rotated JPEG upright and removes EXIF, GPS and XMP, keeping the colour profile', async () => {
    const copies = await makePhotoCopies(await rotatedJpeg(60, 40), 'image/jpeg');
    for (const copy of [copies.display, copies.thumbnail]) {
      const meta = await expectNoPrivateMetadata(copy);
      // Stored 60×40 landscape; upright it is 40×60 with the (stored left) red half on top.
      expect([meta.width, meta.height]).toEqual([40, 60]);
      expect(meta.icc).toBeDefined();
      expect(isRed(await pixel(copy, 20, 5))).toBe(true);
      expect(isBlue(await pixel(copy, 20, 55))).toBe(true);
      expect(copy.includes(Buffer.from('Secret Owner'))).toBe(false);
      expect(copy.includes(Buffer.from('TestCam'))).toBe(false);
    }
    expect([copies.width, copies.height]).toEqual([40, 60]);
  });

  it('shrinks a 12 MP photo to at most 1600 px (display) and 320 px (thumbnail), keeping the shape', async () => {
    const copies = await makePhotoCopies(await largeJpeg(4000, 3000), 'image/jpeg');
    const display = await expectNoPrivateMetadata(copies.display);
    const thumbnail = await expectNoPrivateMetadata(copies.thumbnail);
    expect([display.width, display.height]).toEqual([DISPLAY_MAX_PX, 1200]);
    expect([thumbnail.width, thumbnail.height]).toEqual([THUMBNAIL_MAX_PX, 240]);
    expect(copies.thumbnail.length).toBeLessThan(30_000);
  }, 60_000);

  it('makes JPEG copies of a PNG, transparent areas white', async () => {
    const copies = await makePhotoCopies(await transparentPng(50, 30), 'image/png');
    await expectNoPrivateMetadata(copies.display);
    expect(isRed(await pixel(copies.display, 5, 15))).toBe(true);
    expect(await pixel(copies.display, 45, 15)).toEqual([255, 255, 255]);
  });

  it('decodes a HEIC photo into JPEG copies without its GPS position', async () => {
    const heic = heicFixture();
    expect(heic.subarray(4, 12).toString('latin1')).toBe('ftypheic');
    const copies = await makePhotoCopies(heic, 'image/heic');
    for (const copy of [copies.display, copies.thumbnail]) {
      const meta = await expectNoPrivateMetadata(copy);
      expect([meta.width, meta.height]).toEqual([96, 64]);
      expect(isRed(await pixel(copy, 10, 32))).toBe(true);
      expect(isBlue(await pixel(copy, 85, 32))).toBe(true);
    }
  });

  it('refuses a file that is not a decodable image with UnreadablePhotoError', async () => {
    const jpegHead = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]);
    await expect(makePhotoCopies(jpegHead, 'image/jpeg')).rejects.toBeInstanceOf(UnreadablePhotoError);
    const heicHead = Buffer.concat([heicFixture().subarray(0, 40), Buffer.alloc(100)]);
    await expect(makePhotoCopies(heicHead, 'image/heic')).rejects.toBeInstanceOf(UnreadablePhotoError);
  });
});
