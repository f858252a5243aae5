// Noto's OpenType layout tables (GSUB, GPOS, GDEF) drive complex shaping that a report of Latin,
// Greek and Cyrillic text does not need, and shaping every word cost ~150 ms per report. Dropping
// them leaves a plain TrueType font: glyphs, metrics and the character map, all still embedded.

const DROPPED = new Set(['GSUB', 'GPOS', 'GDEF', 'BASE', 'JSTF', 'MATH', 'DSIG']);

/** A copy of a TrueType font without its OpenType layout tables. */
export function withoutLayoutTables(font: Buffer): Buffer {
  const numTables = font.readUInt16BE(4);
  const tables: { tag: string; checksum: number; data: Buffer }[] = [];
  for (let i = 0; i < numTables; i++) {
    const at = 12 + i * 16;
    const tag = font.toString('latin1', at, at + 4);
    const checksum = font.readUInt32BE(at + 4);
    const offset = font.readUInt32BE(at + 8);
    const length = font.readUInt32BE(at + 12);
    if (!DROPPED.has(tag)) tables.push({ tag, checksum, data: font.subarray(offset, offset + length) });
  }
  const headerSize = 12 + tables.length * 16;
  const padded = (n: number) => (n + 3) & ~3;
  const out = Buffer.alloc(headerSize + tables.reduce((sum, t) => sum + padded(t.data.length), 0));
  font.copy(out, 0, 0, 4); // sfnt version
  let entrySelector = 0;
  while (2 ** (entrySelector + 1) <= tables.length) entrySelector++;
  const searchRange = 2 ** entrySelector * 16;
  out.writeUInt16BE(tables.length, 4);
  out.writeUInt16BE(searchRange, 6);
  out.writeUInt16BE(entrySelector, 8);
  out.writeUInt16BE(tables.length * 16 - searchRange, 10);
  let offset = headerSize;
  tables.forEach((t, i) => {
    const at = 12 + i * 16;
    out.write(t.tag, at, 'latin1');
    out.writeUInt32BE(t.checksum, at + 4);
    out.writeUInt32BE(offset, at + 8);
    out.writeUInt32BE(t.data.length, at + 12);
    t.data.copy(out, offset);
    offset += padded(t.data.length);
  });
  return out;
}
