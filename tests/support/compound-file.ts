// A minimal OLE compound file made in a test: one allocation-table sector, `padSectors` filler sectors,
// then one directory sector listing a root entry and the given streams (with no data). Enough for
// anything that reads the directory, like the legacy .doc check (server/modules/samples/word-document.ts).

const SECTOR = 4096; // version 4 compound files use 4096-byte sectors
const FREE = 0xffffffff;
const END_OF_CHAIN = 0xfffffffe;
const FAT_SECTOR = 0xfffffffd;

export function compoundFile(streams: readonly string[], opts: { padSectors?: number } = {}): Buffer {
  const pad = opts.padSectors ?? 0;
  const dirSector = 1 + pad;
  const header = Buffer.alloc(SECTOR, 0);
  Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(header, 0);
  header.writeUInt16LE(0x3e, 0x18); // minor version
  header.writeUInt16LE(4, 0x1a); // major version 4
  header.writeUInt16LE(0xfffe, 0x1c); // byte order
  header.writeUInt16LE(12, 0x1e); // sector shift: 4096
  header.writeUInt16LE(6, 0x20); // mini sector shift
  header.writeUInt32LE(1, 0x2c); // allocation-table sectors
  header.writeUInt32LE(dirSector, 0x30); // first directory sector
  header.writeUInt32LE(4096, 0x38); // mini stream cut-off
  header.writeUInt32LE(END_OF_CHAIN, 0x3c); // no mini allocation table
  header.writeUInt32LE(END_OF_CHAIN, 0x44); // no DIFAT sectors
  for (let i = 0; i < 109; i++) header.writeUInt32LE(i === 0 ? 0 : FREE, 0x4c + i * 4);

  const fat = Buffer.alloc(SECTOR, 0xff);
  fat.writeUInt32LE(FAT_SECTOR, 0);
  for (let s = 1; s <= pad; s++) fat.writeUInt32LE(s === pad ? END_OF_CHAIN : s + 1, s * 4);
  fat.writeUInt32LE(END_OF_CHAIN, dirSector * 4);

  const dir = Buffer.alloc(SECTOR, 0);
  ['Root Entry', ...streams].forEach((name, i) => {
    const at = i * 128;
    dir.write(name, at, 'utf16le');
    dir.writeUInt16LE((name.length + 1) * 2, at + 0x40);
    dir[at + 0x42] = i === 0 ? 5 : 2; // root storage, then streams
    dir.writeUInt32LE(FREE, at + 0x44); // no siblings, no children
    dir.writeUInt32LE(FREE, at + 0x48);
    dir.writeUInt32LE(i === 0 && streams.length ? 1 : FREE, at + 0x4c);
    dir.writeUInt32LE(END_OF_CHAIN, at + 0x74);
  });
  const filler = Buffer.alloc(SECTOR * pad, 0x41);
  return Buffer.concat([header, fat, filler, dir]);
}
