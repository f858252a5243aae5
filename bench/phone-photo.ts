import sharp from 'sharp';

// A camera-like test photo for the benchmarks (photos, reports): real JPEG, 12 MP by default.

/**
 * A photo whose copies weigh what a phone picture's do: colour blotches (coarse noise enlarged, so
 * a 320 px thumbnail still holds detail, unlike fine noise that averages to grey) with a light
 * sensor grain. Its 320 px thumbnail is ~29 KB, at the heavy end of real photos. Each call draws a
 * different picture. `orientation` is the EXIF orientation the file carries (6: shot in portrait).
 */
export async function phoneLikeJpeg(
  options: { width?: number; height?: number; orientation?: number } = {},
): Promise<Buffer> {
  const { width = 4000, height = 3000, orientation = 6 } = options;
  const raw = (w: number, h: number) => ({ raw: { width: w, height: h, channels: 3 as const } });
  const coarseW = Math.round(width / 20);
  const coarseH = Math.round(height / 20);
  const coarse = await sharp({
    create: {
      width: coarseW,
      height: coarseH,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 70 },
    },
  })
    .raw()
    .toBuffer();
  const blotches = await sharp(coarse, raw(coarseW, coarseH))
    .resize(width, height, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  const grain = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 0, sigma: 1 },
    },
  })
    .raw()
    .toBuffer();
  return sharp(blotches, raw(width, height))
    .composite([{ input: grain, ...raw(width, height), blend: 'add' }])
    .withMetadata({ orientation })
    .jpeg({ quality: 88 })
    .toBuffer();
}
