import { describe, expect, it } from 'vitest';
import { imageTooLargeMessage, MAX_IMAGE_PIXELS } from '../../common/domain/uploads';
import {
  bombJpeg,
  bombPng,
  heicBomb,
  heicFixture,
  phoneHeic,
  rotatedJpeg,
  withIspe,
} from '../../tests/fixtures/photos';
import { HeifHeaderError, readHeifDimensions } from './heif-header';
import { checkDeclaredImageSize, declaredImageSize } from './image-size';

// A HEIF file built box by box, for what the fixtures do not have: grids and overlays.
const u8 = (n: number) => Buffer.from([n]);
const u16 = (n: number) => Buffer.from([n >> 8, n & 255]);
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const box = (type: string, ...body: Buffer[]) => {
  const content = Buffer.concat(body);
  return Buffer.concat([u32(8 + content.length), Buffer.from(type, 'latin1'), content]);
};
const fullBox = (type: string, version: number, flags: number, ...body: Buffer[]) =>
  box(type, u8(version), u8(flags >> 16), u16(flags & 0xffff), ...body);

/** The hvcC box of a real file (its SPS gives that file's coded size). */
function hvccOf(heic: Buffer): Buffer {
  const at = heic.indexOf('hvcC', 0, 'latin1') - 4;
  return heic.subarray(at, at + heic.readUInt32BE(at));
}

/**
 * Item 1 is a `grid` (or `iovl`) whose data, in `idat`, declares `canvas`; items 2.. are `hvc1`
 * tiles coded like `tileSource`; the grid references tile 2 `references` times.
 */
function derivedHeif(opts: {
  type: 'grid' | 'iovl';
  canvas: [number, number];
  ispe: [number, number];
  tileSource: Buffer;
  references: number;
}): Buffer {
  const [cw, ch] = opts.canvas;
  const data =
    opts.type === 'grid'
      ? Buffer.concat([u8(0), u8(1), u8(0), u8(opts.references - 1), u32(cw), u32(ch)])
      : Buffer.concat([u8(0), u8(1), Buffer.alloc(8), u32(cw), u32(ch)]);
  const infe = (id: number, type: string) =>
    fullBox('infe', 2, 0, u16(id), u16(0), Buffer.from(type, 'latin1'));
  const ispe = fullBox('ispe', 0, 0, u32(opts.ispe[0]), u32(opts.ispe[1]));
  const ipco = box('ipco', ispe, hvccOf(opts.tileSource));
  // Item 1 has property 1 (ispe); item 2 has property 2 (hvcC).
  const ipma = fullBox('ipma', 0, 0, u32(2), u16(1), u8(1), u8(0x81), u16(2), u8(1), u8(0x82));
  const refs = Array.from({ length: opts.references }, () => u16(2));
  const iref = fullBox('iref', 0, 0, box('dimg', u16(1), u16(opts.references), ...refs));
  // iloc v1: offset_size 4, length_size 4, base_offset_size 0, index_size 0; item 1 in idat.
  const iloc = fullBox(
    'iloc',
    1,
    0,
    u8(0x44),
    u8(0x00),
    u16(1),
    u16(1),
    u16(1),
    u16(0),
    u16(1),
    u32(0),
    u32(data.length),
  );
  const meta = fullBox(
    'meta',
    0,
    0,
    fullBox('hdlr', 0, 0, u32(0), Buffer.from('pict', 'latin1'), Buffer.alloc(13)),
    fullBox('pitm', 0, 0, u16(1)),
    fullBox('iinf', 0, 0, u16(2), infe(1, opts.type), infe(2, 'hvc1')),
    iref,
    box('iprp', ipco, ipma),
    iloc,
    box('idat', data),
  );
  return Buffer.concat([
    box('ftyp', Buffer.from('heic', 'latin1'), u32(0), Buffer.from('mif1heic', 'latin1')),
    meta,
  ]);
}

describe('readHeifDimensions', () => {
  it('reads the size of real HEIC files without decoding them', () => {
    expect(readHeifDimensions(heicFixture())).toMatchObject({
      width: 96,
      height: 64,
      largestPixels: 96 * 64,
    });
    expect(readHeifDimensions(phoneHeic())).toMatchObject({ width: 4032, height: 3024 });
    expect(readHeifDimensions(heicBomb())).toMatchObject({
      width: 8192,
      height: 8192,
      largestPixels: 8192 * 8192,
    });
  });

  it('a file that understates its size in ispe is read by its coded picture (the HEVC parameter set)', () => {
    const lying = withIspe(heicBomb(), 512, 512);
    expect(readHeifDimensions(lying)).toMatchObject({ width: 8192, height: 8192 });
  });

  it('a file that overstates its size in ispe counts as that large', () => {
    expect(readHeifDimensions(withIspe(phoneHeic(), 9000, 9000))).toMatchObject({
      width: 9000,
      height: 9000,
    });
  });

  it("a grid's or an overlay's canvas counts, from the item's data", () => {
    for (const type of ['grid', 'iovl'] as const) {
      const heif = derivedHeif({
        type,
        canvas: [10_000, 9_000],
        ispe: [96, 64],
        tileSource: heicFixture(),
        references: 1,
      });
      expect(readHeifDimensions(heif)).toMatchObject({ width: 10_000, height: 9_000 });
    }
  });

  it("a grid's tiles add up: one tile named many times costs that many decodes", () => {
    const heif = derivedHeif({
      type: 'grid',
      canvas: [4032, 3024],
      ispe: [4032, 3024],
      tileSource: phoneHeic(),
      references: 6,
    });
    const read = readHeifDimensions(heif);
    expect(read.gridTilePixels).toBe(6 * 4032 * 3024);
    expect(read.largestPixels).toBe(4032 * 3024);
  });

  it('refuses what is not a readable HEIF description with HeifHeaderError', () => {
    for (const broken of [
      heicBomb().subarray(0, 200),
      Buffer.from('not an image at all'),
      Buffer.alloc(0),
      withIspe(heicFixture(), 0, 0).subarray(0, heicFixture().indexOf('ispe', 0, 'latin1') + 6),
    ])
      expect(() => readHeifDimensions(broken)).toThrow(HeifHeaderError);
  });
});

describe('declaredImageSize and checkDeclaredImageSize', () => {
  it('reads JPEG and PNG sizes from their headers (sharp), HEIC box by box', async () => {
    expect(await declaredImageSize(bombPng(8192, 8192), 'image/png')).toEqual({
      width: 8192,
      height: 8192,
      pixels: 8192 * 8192,
    });
    expect(await declaredImageSize(await bombJpeg(9000, 6000), 'image/jpeg')).toMatchObject({
      pixels: 54_000_000,
    });
    expect(await declaredImageSize(await rotatedJpeg(60, 40), 'image/jpeg')).toMatchObject({
      width: 60,
      height: 40,
    });
    expect(await declaredImageSize(phoneHeic(), 'image/heic')).toMatchObject({ width: 4032, height: 3024 });
  });

  it('a JPEG whose header no decoder reads has no size (its copies will be marked failed)', async () => {
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(500, 9)]);
    expect(await declaredImageSize(broken, 'image/jpeg')).toBeNull();
    await expect(checkDeclaredImageSize(broken, 'image/jpeg')).resolves.toBeUndefined();
  });

  it('refuses more than 50 megapixels with 413, accepts up to it', async () => {
    await expect(checkDeclaredImageSize(heicBomb(), 'image/heic')).rejects.toMatchObject({
      statusCode: 413,
      message: imageTooLargeMessage(8192, 8192),
    });
    // Exactly at the limit passes; one row more does not.
    const width = 10_000;
    const height = MAX_IMAGE_PIXELS / width;
    await expect(checkDeclaredImageSize(bombPng(width, height), 'image/png')).resolves.toBeUndefined();
    await expect(checkDeclaredImageSize(bombPng(width, height + 1), 'image/png')).rejects.toMatchObject({
      statusCode: 413,
    });
    await expect(checkDeclaredImageSize(phoneHeic(), 'image/heic')).resolves.toBeUndefined();
  });

  it('refuses a grid whose tiles add up to far more than the limit, and an unreadable HEIC with 415', async () => {
    const heif = derivedHeif({
      type: 'grid',
      canvas: [4032, 3024],
      ispe: [4032, 3024],
      tileSource: phoneHeic(),
      references: 6,
    });
    await expect(checkDeclaredImageSize(heif, 'image/heic')).rejects.toMatchObject({ statusCode: 413 });
    await expect(checkDeclaredImageSize(heicBomb().subarray(0, 100), 'image/heic')).rejects.toMatchObject({
      statusCode: 415,
    });
  });
});
