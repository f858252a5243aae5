// A legacy Word document (.doc) is an OLE compound file holding a stream named "WordDocument". Other
// compound files (.xls, .msi, .msg, .ppt) share the same signature, so the signature alone does not
// make a document acceptable (docs/product/limits.md). This reads the compound file's directory —
// the header, the sector allocation table and the directory chain — and looks for that stream. Every
// offset is checked against the buffer, and every chain is bounded, so hostile bytes cannot make it
// loop or read outside the file.

const SIGNATURE = Buffer.from('d0cf11e0a1b11ae1', 'hex');
const HEADER_DIFAT_ENTRIES = 109;
const END_OF_CHAIN = 0xfffffffe;
const DIRECTORY_ENTRY_BYTES = 128;
const STREAM_OBJECT = 2;

/** Whether `bytes` is a compound file whose directory lists a "WordDocument" stream. */
export function isWordDocument(bytes: Buffer): boolean {
  if (bytes.length < 512 || !bytes.subarray(0, 8).equals(SIGNATURE)) return false;
  const sectorShift = bytes.readUInt16LE(0x1e);
  if (sectorShift !== 9 && sectorShift !== 12) return false;
  const sectorSize = 1 << sectorShift;
  const sectorCount = Math.floor(bytes.length / sectorSize) - 1;
  const sectorAt = (sector: number): Buffer | null => {
    if (sector < 0 || sector >= sectorCount) return null;
    const start = (sector + 1) * sectorSize;
    return bytes.subarray(start, start + sectorSize);
  };

  // The sectors of the allocation table: 109 listed in the header, the rest in the DIFAT chain.
  const fatSectors: number[] = [];
  for (let i = 0; i < HEADER_DIFAT_ENTRIES; i++) {
    const s = bytes.readUInt32LE(0x4c + i * 4);
    if (s < END_OF_CHAIN - 4) fatSectors.push(s);
  }
  let difat = bytes.readUInt32LE(0x44);
  for (let hops = 0; difat < END_OF_CHAIN - 4 && hops <= sectorCount; hops++) {
    const sector = sectorAt(difat);
    if (!sector) return false;
    const perSector = sectorSize / 4 - 1;
    for (let i = 0; i < perSector; i++) {
      const s = sector.readUInt32LE(i * 4);
      if (s < END_OF_CHAIN - 4) fatSectors.push(s);
    }
    difat = sector.readUInt32LE(perSector * 4);
  }
  const entriesPerFatSector = sectorSize / 4;
  const next = (sector: number): number | null => {
    const fat = sectorAt(fatSectors[Math.floor(sector / entriesPerFatSector)] ?? -1);
    return fat ? fat.readUInt32LE((sector % entriesPerFatSector) * 4) : null;
  };

  let dir: number | null = bytes.readUInt32LE(0x30);
  for (let hops = 0; dir !== null && dir !== END_OF_CHAIN && hops <= sectorCount; hops++) {
    const sector = sectorAt(dir);
    if (!sector) return false;
    for (let at = 0; at + DIRECTORY_ENTRY_BYTES <= sector.length; at += DIRECTORY_ENTRY_BYTES) {
      const nameBytes = sector.readUInt16LE(at + 0x40);
      if (nameBytes < 2 || nameBytes > 64) continue;
      const name = sector.toString('utf16le', at, at + nameBytes - 2);
      if (name === 'WordDocument' && sector[at + 0x42] === STREAM_OBJECT) return true;
    }
    dir = next(dir);
  }
  return false;
}
