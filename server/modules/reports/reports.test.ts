import { describe, expect, it } from 'vitest';
import { elementSetProblem, hasAtMostTwoDecimals } from '../../../common/contracts/reports';
import { REPORT_CODE_PATTERN } from '../../../common/domain/reports';
import { notesToBlocks } from './notes-pdf';
import { sanitizeNotes } from './notes-sanitizer';
import { newReportCode } from './report-code';

describe('report codes', () => {
  it('are 8 characters of the unambiguous alphabet', () => {
    const codes = new Set(Array.from({ length: 2000 }, newReportCode));
    for (const c of codes) expect(c).toMatch(REPORT_CODE_PATTERN);
    expect(codes.size).toBe(2000);
  });
});

describe('notes sanitising (docs/product/limits.md)', () => {
  it('keeps the toolbar tags and drops scripts, handlers, styles and links', () => {
    expect(
      sanitizeNotes('<p style="color:red" onclick="x()">a <b>b</b> <i>c</i></p><script>alert(1)</script>'),
    ).toBe('<p>a <b>b</b> <i>c</i></p>');
    expect(sanitizeNotes('<a href="javascript:alert(1)">x</a><img src=x onerror=alert(1)>')).toBe('x');
    expect(sanitizeNotes('<iframe src="//evil"></iframe><h3>h</h3>')).toBe('h');
  });
  it('turns empty notes into null', () => {
    for (const empty of [
      null,
      undefined,
      '',
      '   ',
      '<p></p>',
      '<p><br></p>',
      '<script>x</script>',
      '&nbsp;',
    ])
      expect(sanitizeNotes(empty)).toBeNull();
  });
});

describe('notes on the PDF', () => {
  it('become blocks of styled runs, with list prefixes', () => {
    const blocks = notesToBlocks(
      '<h1>T</h1><p>a <strong>b <em>c</em></strong> &amp; <u>d</u></p><ol><li>x</li><li>y</li></ol><ul><li>z</li></ul>',
    );
    expect(blocks.map((b) => [b.kind, b.prefix])).toEqual([
      ['h1', ''],
      ['p', ''],
      ['li', '1.'],
      ['li', '2.'],
      ['li', '•'],
    ]);
    expect(blocks[1]?.runs).toEqual([
      { text: 'a ', bold: false, italic: false, underline: false },
      { text: 'b ', bold: true, italic: false, underline: false },
      { text: 'c', bold: true, italic: true, underline: false },
      { text: ' & ', bold: false, italic: false, underline: false },
      { text: 'd', bold: false, italic: false, underline: true },
    ]);
  });
});

describe('element set rules', () => {
  it('finds duplicates ignoring case and totals over 100 in hundredths', () => {
    expect(
      elementSetProblem([
        { element: 'Gold', percentage: 50 },
        { element: ' gold ', percentage: 1 },
      ])?.kind,
    ).toBe('duplicate');
    expect(
      elementSetProblem([
        { element: 'A', percentage: 33.33 },
        { element: 'B', percentage: 33.33 },
        { element: 'C', percentage: 33.34 },
      ]),
    ).toBeNull();
    expect(
      elementSetProblem([
        { element: 'A', percentage: 0.1 },
        { element: 'B', percentage: 99.91 },
      ])?.kind,
    ).toBe('total');
    expect(hasAtMostTwoDecimals(0.29)).toBe(true);
    expect(hasAtMostTwoDecimals(10.005)).toBe(false);
  });
});
