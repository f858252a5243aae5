import { describe, expect, it } from 'vitest';
import { compoundFile } from '../../../tests/support/compound-file';
import { isWordDocument } from './word-document';

describe('isWordDocument', () => {
  it('accepts a compound file with a WordDocument stream, wherever its directory is', () => {
    expect(isWordDocument(compoundFile(['WordDocument', '1Table']))).toBe(true);
    expect(isWordDocument(compoundFile(['1Table', 'WordDocument'], { padSectors: 30 }))).toBe(true);
  });

  it('refuses other compound files (a workbook, an installer, a mail) and non-compound bytes', () => {
    expect(isWordDocument(compoundFile(['Workbook']))).toBe(false);
    expect(isWordDocument(compoundFile(['__properties_version1.0', '__substg1.0_0037001F']))).toBe(false);
    expect(isWordDocument(compoundFile([]))).toBe(false);
    expect(isWordDocument(Buffer.from('%PDF-1.7 not a compound file'))).toBe(false);
  });

  it('refuses a cut file and a directory chain that loops, without reading outside the bytes', () => {
    const doc = compoundFile(['WordDocument'], { padSectors: 2 });
    expect(isWordDocument(doc.subarray(0, doc.length - 4096))).toBe(false);
    const looping = compoundFile(['Workbook']);
    // The directory sector (1) points to itself in the allocation table.
    looping.writeUInt32LE(1, 4096 + 4);
    expect(isWordDocument(looping)).toBe(false);
  });
});
