// Reads how many pixels a HEIC/HEIF file declares, from its boxes alone: nothing is decoded.
// docs/product/security.md ("Images") says why every image's size is checked before it is decoded.
//
// A HEIF file (ISO/IEC 23008-12, on the ISO base media file format) describes its images in the
// `meta` box: items (`iinf`), their properties (`iprp` → `ipco` + `ipma`), references (`iref`) and
// where each item's bytes are (`iloc`, `idat`). A decoder allocates from several of these, and a
// crafted file can make them disagree, so every size a decoder might trust counts:
// - each image spatial extent (`ispe`): width × height of an item, as the file claims it;
// - each HEVC decoder configuration (`hvcC`): the picture size its sequence parameter set (SPS)
//   gives, which is what the HEVC decoder allocates whatever `ispe` says;
// - each grid or overlay item's own output size, stored in the item's data;
// - each grid's tiles together: every tile a grid references is decoded, so a grid that names one
//   large tile many times costs that many decodes.

export type HeifDimensions = {
  /** The largest width × height any image item, coded picture or derived canvas declares. */
  largestPixels: number;
  /** That image's width and height. */
  width: number;
  height: number;
  /** The most pixels one grid makes the decoder decode (its tiles added up), 0 without grids. */
  gridTilePixels: number;
};

export class HeifHeaderError extends Error {
  override name = 'HeifHeaderError';
}

type Box = { type: string; start: number; body: number; end: number };

/** Boxes within [start, end) of `buf`; a box that runs past `end` is a broken file. */
function boxes(buf: Buffer, start: number, end: number): Box[] {
  const out: Box[] = [];
  let at = start;
  while (at + 8 <= end) {
    let size = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    let body = at + 8;
    if (size === 1) {
      if (at + 16 > end) throw new HeifHeaderError(`box ${type} cut short`);
      const large = buf.readBigUInt64BE(at + 8);
      if (large > BigInt(end - at)) throw new HeifHeaderError(`box ${type} runs past its parent`);
      size = Number(large);
      body = at + 16;
    } else if (size === 0) {
      size = end - at;
    }
    if (size < body - at || at + size > end) throw new HeifHeaderError(`box ${type} runs past its parent`);
    out.push({ type, start: at, body, end: at + size });
    at += size;
  }
  return out;
}

const child = (buf: Buffer, parent: Box, type: string, fullBox = false) =>
  boxes(buf, parent.body + (fullBox ? 4 : 0), parent.end).find((b) => b.type === type);

/** Reads big-endian fields in order within [at, end); reading past `end` is a broken file. */
class Reader {
  constructor(
    private readonly buf: Buffer,
    public at: number,
    private readonly end: number,
  ) {}
  private need(n: number) {
    if (this.at + n > this.end) throw new HeifHeaderError('box cut short');
  }
  u8() {
    this.need(1);
    return this.buf.readUInt8(this.at++);
  }
  u16() {
    this.need(2);
    const v = this.buf.readUInt16BE(this.at);
    this.at += 2;
    return v;
  }
  u32() {
    this.need(4);
    const v = this.buf.readUInt32BE(this.at);
    this.at += 4;
    return v;
  }
  /** An unsigned field of 0, 4 or 8 bytes (iloc's sizes); 8-byte values beyond 2^53 are refused. */
  sized(bytes: number) {
    if (bytes === 0) return 0;
    if (bytes === 4) return this.u32();
    if (bytes === 8) {
      this.need(8);
      const v = this.buf.readBigUInt64BE(this.at);
      this.at += 8;
      if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new HeifHeaderError('offset too large');
      return Number(v);
    }
    throw new HeifHeaderError(`unsupported field size ${bytes}`);
  }
  skip(n: number) {
    this.need(n);
    this.at += n;
  }
}

/** Bits of an HEVC RBSP (emulation-prevention bytes already removed). */
class BitReader {
  private bit = 0;
  constructor(private readonly bytes: Uint8Array) {}
  u(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) {
      const byte = this.bytes[this.bit >> 3];
      if (byte === undefined) throw new HeifHeaderError('parameter set cut short');
      v = v * 2 + ((byte >> (7 - (this.bit & 7))) & 1);
      this.bit++;
    }
    return v;
  }
  /** Exp-Golomb ue(v). */
  ue(): number {
    let zeros = 0;
    while (this.u(1) === 0) {
      zeros++;
      if (zeros > 31) throw new HeifHeaderError('bad exp-Golomb code');
    }
    return 2 ** zeros - 1 + this.u(zeros);
  }
}

/** The RBSP of a NAL unit: its payload after the 2-byte header, 0x000003 escapes removed. */
function rbsp(nal: Buffer): Uint8Array {
  const out: number[] = [];
  let zeros = 0;
  for (let i = 2; i < nal.length; i++) {
    const b = nal[i] as number;
    if (zeros >= 2 && b === 3) {
      zeros = 0;
      continue;
    }
    zeros = b === 0 ? zeros + 1 : 0;
    out.push(b);
  }
  return Uint8Array.from(out);
}

/** pic_width/height_in_luma_samples of an HEVC sequence parameter set (ITU-T H.265 §7.3.2.2). */
export function hevcSpsSize(nal: Buffer): { width: number; height: number } {
  const r = new BitReader(rbsp(nal));
  r.u(4); // sps_video_parameter_set_id
  const maxSubLayersMinus1 = r.u(3);
  r.u(1); // sps_temporal_id_nesting_flag
  // profile_tier_level(1, maxSubLayersMinus1): the general profile (88 bits) and level (8 bits) …
  r.u(32);
  r.u(32);
  r.u(24);
  r.u(8);
  // … then which sub-layers carry a profile and a level, and those.
  const profilePresent: number[] = [];
  const levelPresent: number[] = [];
  for (let i = 0; i < maxSubLayersMinus1; i++) {
    profilePresent.push(r.u(1));
    levelPresent.push(r.u(1));
  }
  if (maxSubLayersMinus1 > 0) for (let i = maxSubLayersMinus1; i < 8; i++) r.u(2);
  for (let i = 0; i < maxSubLayersMinus1; i++) {
    if (profilePresent[i]) {
      r.u(32);
      r.u(32);
      r.u(24);
    }
    if (levelPresent[i]) r.u(8);
  }
  r.ue(); // sps_seq_parameter_set_id
  const chromaFormatIdc = r.ue();
  if (chromaFormatIdc === 3) r.u(1); // separate_colour_plane_flag
  const width = r.ue();
  const height = r.ue();
  return { width, height };
}

const HVCC_HEADER_BYTES = 22;
const SPS_NAL_TYPE = 33;

/** Every picture size the sequence parameter sets of an `hvcC` box declare. */
function hvccSizes(buf: Buffer, box: Box): { width: number; height: number }[] {
  const r = new Reader(buf, box.body, box.end);
  r.skip(HVCC_HEADER_BYTES);
  const arrays = r.u8();
  const sizes: { width: number; height: number }[] = [];
  for (let a = 0; a < arrays; a++) {
    const nalType = r.u8() & 0x3f;
    const count = r.u16();
    for (let n = 0; n < count; n++) {
      const length = r.u16();
      const start = r.at;
      r.skip(length);
      if (nalType === SPS_NAL_TYPE) sizes.push(hevcSpsSize(buf.subarray(start, start + length)));
    }
  }
  return sizes;
}

type Extent = { offset: number; length: number };
type Location = { method: number; baseOffset: number; extents: Extent[] };

/** `iloc`: where each item's bytes are (ISO/IEC 14496-12 §8.11.3). */
function parseIloc(buf: Buffer, box: Box): Map<number, Location> {
  const r = new Reader(buf, box.body, box.end);
  const version = r.u8();
  r.skip(3);
  const sizes1 = r.u8();
  const sizes2 = r.u8();
  const offsetSize = sizes1 >> 4;
  const lengthSize = sizes1 & 15;
  const baseOffsetSize = sizes2 >> 4;
  const indexSize = version === 1 || version === 2 ? sizes2 & 15 : 0;
  const count = version < 2 ? r.u16() : r.u32();
  const out = new Map<number, Location>();
  for (let i = 0; i < count; i++) {
    const id = version < 2 ? r.u16() : r.u32();
    const method = version === 1 || version === 2 ? r.u16() & 15 : 0;
    r.u16(); // data_reference_index
    const baseOffset = r.sized(baseOffsetSize);
    const extentCount = r.u16();
    const extents: Extent[] = [];
    for (let e = 0; e < extentCount; e++) {
      if (indexSize > 0) r.sized(indexSize);
      extents.push({ offset: r.sized(offsetSize), length: r.sized(lengthSize) });
    }
    out.set(id, { method, baseOffset, extents });
  }
  return out;
}

/** The first bytes of an item's data (file offsets, or offsets into `idat`), if they are in the file. */
function itemData(
  buf: Buffer,
  loc: Location | undefined,
  idat: Box | undefined,
  want: number,
): Buffer | null {
  const first = loc?.extents[0];
  if (!loc || !first) return null;
  let start: number;
  let limit: number;
  if (loc.method === 0) {
    start = loc.baseOffset + first.offset;
    limit = buf.length;
  } else if (loc.method === 1 && idat) {
    start = idat.body + loc.baseOffset + first.offset;
    limit = idat.end;
  } else return null;
  const end = Math.min(limit, start + (first.length || want));
  return start < end && end <= buf.length ? buf.subarray(start, end) : null;
}

/** Output width × height of a grid (`grid`) or overlay (`iovl`) item's data. */
function derivedCanvas(type: string, data: Buffer): { width: number; height: number } {
  const r = new Reader(data, 0, data.length);
  r.u8(); // version
  const flags = r.u8();
  if (type === 'grid') {
    r.u8(); // rows_minus_one
    r.u8(); // columns_minus_one
  } else {
    // iovl: canvas fill value, one 16-bit value per channel (four channels).
    r.skip(8);
  }
  const wide = (flags & 1) === 1;
  const width = wide ? r.u32() : r.u16();
  const height = wide ? r.u32() : r.u16();
  return { width, height };
}

/**
 * Reads the sizes a HEIC/HEIF file declares. Throws HeifHeaderError when the file has no readable
 * `meta` box or no image size at all (libheif refuses such a file too).
 */
export function readHeifDimensions(buf: Buffer): HeifDimensions {
  try {
    return readDimensions(buf);
  } catch (err) {
    // A field read past the end of the file (Buffer's RangeError) is a broken file too.
    if (err instanceof RangeError) throw new HeifHeaderError(`file cut short: ${err.message}`);
    throw err;
  }
}

function readDimensions(buf: Buffer): HeifDimensions {
  const top = boxes(buf, 0, buf.length);
  const meta = top.find((b) => b.type === 'meta');
  if (!meta) throw new HeifHeaderError('no meta box');
  const metaChildren = boxes(buf, meta.body + 4, meta.end);
  const find = (type: string) => metaChildren.find((b) => b.type === type);

  // Items and their types.
  const itemTypes = new Map<number, string>();
  const iinf = find('iinf');
  if (iinf) {
    const version = buf.readUInt8(iinf.body);
    const entriesStart = iinf.body + 4 + (version === 0 ? 2 : 4);
    for (const infe of boxes(buf, entriesStart, iinf.end).filter((b) => b.type === 'infe')) {
      const r = new Reader(buf, infe.body, infe.end);
      const v = r.u8();
      r.skip(3);
      if (v < 2) continue; // versions 0 and 1 carry no item type
      const id = v === 2 ? r.u16() : r.u32();
      r.u16(); // item_protection_index
      r.skip(4);
      itemTypes.set(id, buf.toString('latin1', r.at - 4, r.at));
    }
  }

  // Properties, and which item has which.
  const iprp = find('iprp');
  const ipco = iprp ? child(buf, iprp, 'ipco') : undefined;
  const properties = ipco ? boxes(buf, ipco.body, ipco.end) : [];
  const itemProperties = new Map<number, Box[]>();
  for (const ipma of iprp ? boxes(buf, iprp.body, iprp.end).filter((b) => b.type === 'ipma') : []) {
    const r = new Reader(buf, ipma.body, ipma.end);
    const version = r.u8();
    r.skip(2);
    const wideIndex = (r.u8() & 1) === 1;
    const entries = r.u32();
    for (let i = 0; i < entries; i++) {
      const id = version < 1 ? r.u16() : r.u32();
      const count = r.u8();
      const list = itemProperties.get(id) ?? [];
      for (let a = 0; a < count; a++) {
        const index = wideIndex ? r.u16() & 0x7fff : r.u8() & 0x7f;
        const property = index > 0 ? properties[index - 1] : undefined;
        if (property) list.push(property);
      }
      itemProperties.set(id, list);
    }
  }

  let largest = { pixels: 0, width: 0, height: 0 };
  const consider = (width: number, height: number) => {
    const pixels = width * height;
    if (pixels > largest.pixels) largest = { pixels, width, height };
  };
  for (const p of properties) {
    if (p.type === 'ispe') {
      const r = new Reader(buf, p.body, p.end);
      r.skip(4);
      consider(r.u32(), r.u32());
    }
  }
  if (largest.pixels === 0) throw new HeifHeaderError('no image size (ispe) in the file');

  // What each coded item decodes to, by its own parameter sets.
  const codedPixels = new Map<number, number>();
  for (const [id, props] of itemProperties) {
    for (const p of props.filter((x) => x.type === 'hvcC')) {
      for (const { width, height } of hvccSizes(buf, p)) {
        consider(width, height);
        codedPixels.set(id, Math.max(codedPixels.get(id) ?? 0, width * height));
      }
    }
  }
  // Parameter sets of properties no item names still count: a decoder may be handed them.
  for (const p of properties.filter((x) => x.type === 'hvcC'))
    for (const { width, height } of hvccSizes(buf, p)) consider(width, height);

  // Derived images: their canvas, and for grids every tile they make the decoder decode.
  const iloc = find('iloc');
  const locations = iloc ? parseIloc(buf, iloc) : new Map<number, Location>();
  const idat = find('idat');
  for (const [id, type] of itemTypes) {
    if (type !== 'grid' && type !== 'iovl') continue;
    const data = itemData(buf, locations.get(id), idat, 32);
    if (!data) continue;
    const { width, height } = derivedCanvas(type, data);
    consider(width, height);
  }
  let gridTilePixels = 0;
  const iref = find('iref');
  if (iref) {
    const version = buf.readUInt8(iref.body);
    for (const ref of boxes(buf, iref.body + 4, iref.end)) {
      if (ref.type !== 'dimg') continue;
      const r = new Reader(buf, ref.body, ref.end);
      const from = version === 0 ? r.u16() : r.u32();
      const count = r.u16();
      if (itemTypes.get(from) !== 'grid') continue;
      let sum = 0;
      for (let i = 0; i < count; i++) sum += codedPixels.get(version === 0 ? r.u16() : r.u32()) ?? 0;
      gridTilePixels = Math.max(gridTilePixels, sum);
    }
  }
  return { largestPixels: largest.pixels, width: largest.width, height: largest.height, gridTilePixels };
}
