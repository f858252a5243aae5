import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageFor, prepareImage } from './images';

// Prepared images (logo, signatures) must be written exactly as pdfkit writes an image it opens itself.

/** A one-page PDF showing `images` at fixed places; `prepared` draws them through prepareImage. */
async function pdfWith(images: Buffer[], prepared: boolean): Promise<Buffer> {
  const doc = new PDFDocument({ font: null as unknown as string, info: { CreationDate: new Date(0) } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  for (const [i, src] of images.entries()) {
    const image = prepared ? imageFor(doc, await prepareImage(src)) : src;
    doc.image(image, 50, 50 + i * 120, { fit: [100, 100] });
  }
  doc.end();
  return done;
}

const pixels = (width: number, height: number, channels: 3 | 4) => {
  const raw = Buffer.alloc(width * height * channels);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7) % 251;
  return sharp(raw, { raw: { width, height, channels } });
};

describe('prepared PDF images', () => {
  it('write an opaque PNG and a JPEG byte for byte as pdfkit does, from the second document on too', async () => {
    const png = await pixels(60, 40, 3).png().toBuffer();
    const png16 = await pixels(30, 20, 3).toColourspace('rgb16').png().toBuffer();
    const jpeg = await pixels(60, 40, 3).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const native = await pdfWith([png, png16, jpeg], false);
    expect(await pdfWith([png, png16, jpeg], true)).toEqual(native);
    expect(await pdfWith([png, png16, jpeg], true)).toEqual(native);
  });

  it('write a transparent PNG with the same objects as pdfkit: image, alpha mask and their streams', async () => {
    const png = await pixels(50, 30, 4).png().toBuffer();
    const native = (await pdfWith([png], false)).toString('latin1');
    const prepared = (await pdfWith([png], true)).toString('latin1');
    // pdfkit splits the alpha channel asynchronously and numbers the mask later; the content is the same.
    const objects = (pdf: string) =>
      [...pdf.matchAll(/\d+ 0 obj\n(<<[\s\S]*?>>)\n(?:stream\n([\s\S]*?)\nendstream)?/g)]
        .map((m) => `${(m[1] ?? '').replace(/\d+ 0 R/g, 'REF')}${m[2] ?? ''}`)
        .sort();
    expect(prepared).toContain('/SMask');
    expect(objects(native).length).toBeGreaterThan(5);
    expect(objects(prepared)).toEqual(objects(native));
  });

  it('prepare each distinct image once, and refuse what pdfkit cannot read as pdfkit does', async () => {
    const png = await pixels(20, 20, 3).png().toBuffer();
    expect(await prepareImage(Buffer.from(png))).toBe(await prepareImage(png));
    const garbage = Buffer.from('not an image');
    expect(await prepareImage(garbage)).toBeNull();
    const doc = new PDFDocument({ font: null as unknown as string });
    expect(() => imageFor(doc, null)).toThrow();
  });
});
