import { describe, expect, it } from 'vitest';
import { csvCell, IMPORT_COLUMNS, importTemplateCsv } from '../../../common/contracts/collections';
import { AppError } from '../../plugins/errors';
import { checkImport, readImportCsv } from './import-csv';

// Reading an import's CSV (docs/product/collections.md): what csv-parse makes of quoting, a BOM,
// empty lines and short rows; the row numbers; and that a row the preview writes back with csvCell
// reads as it was.

describe('readImportCsv', () => {
  it('reads quoted cells with commas, quotes and line breaks, a BOM and empty lines; rows numbered from 2', () => {
    const text =
      '\uFEFFitemName,description,photos\r\n"Clock, bracket","He said ""fine""\nsecond line",a.jpg; b.jpg\r\n\r\nVase\r\n';
    const csv = readImportCsv(text);
    expect(csv.columns).toEqual(['itemName', 'description', 'photos']);
    expect(csv.rows).toEqual([
      {
        row: 2,
        fields: { itemName: 'Clock, bracket', description: 'He said "fine"\nsecond line' },
        photos: ['a.jpg', 'b.jpg'],
      },
      { row: 3, fields: { itemName: 'Vase', description: '' }, photos: [] },
    ]);
  });

  it('writes a row back with csvCell so that it reads the same', () => {
    const values = ['plain', 'a, b', 'say "hi"', 'two\nlines', ''];
    const text = `${values.map((_, i) => `c${i}`).join(',')}\n${values.map(csvCell).join(',')}\n`;
    expect(readImportCsv(text).rows[0]?.fields).toEqual(
      Object.fromEntries(values.map((v, i) => [`c${i}`, v])),
    );
  });

  it('refuses an unreadable file, a file with no items, and more rows than allowed', () => {
    expect(() => readImportCsv('itemName\n"open')).toThrow(AppError);
    expect(() => readImportCsv('itemName\n')).toThrow('The CSV has no items');
    const many = `itemName\n${'x\n'.repeat(1001)}`;
    expect(() => readImportCsv(many)).toThrow('at most 1,000 items');
    expect(readImportCsv(`itemName\n${'x\n'.repeat(1000)}`).rows).toHaveLength(1000);
  });
});

describe('checkImport', () => {
  it('passes the template with its photos and names every column it offers', () => {
    const csv = readImportCsv(importTemplateCsv());
    expect(csv.columns).toEqual([...IMPORT_COLUMNS]);
    expect(checkImport(csv, ['teapot-front.jpg', 'teapot-marks.jpg']).problems).toEqual([]);
  });

  it('needs the itemName column', () => {
    const problems = checkImport(readImportCsv('description,photos\nA thing,a.jpg\n'), ['a.jpg']).problems;
    expect(problems[0]).toEqual({
      row: 1,
      field: 'itemName',
      path: 'rows.1.itemName',
      message: 'The CSV needs at least the column "itemName"',
    });
  });
});
