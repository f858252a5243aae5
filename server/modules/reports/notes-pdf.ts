// Draws sanitised notes (only the toolbar's tags: h1, h2, b/strong, i/em, u, ol, ul, li, p, br)
// into a PDF with their formatting. The input has already been through sanitizeNotes.

type Run = { text: string; bold: boolean; italic: boolean; underline: boolean };
type Block = { kind: 'p' | 'h1' | 'h2' | 'li'; prefix: string; depth: number; runs: Run[] };

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const cp =
        name[1] === 'x' || name[1] === 'X'
          ? Number.parseInt(name.slice(2), 16)
          : Number.parseInt(name.slice(1), 10);
      return Number.isFinite(cp) && cp > 0 && cp < 0x110000 ? String.fromCodePoint(cp) : '';
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Splits sanitised HTML into paragraph-level blocks of styled runs. */
export function notesToBlocks(html: string): Block[] {
  const blocks: Block[] = [];
  const lists: { ordered: boolean; n: number }[] = [];
  let bold = 0;
  let italic = 0;
  let underline = 0;
  let current: Block | null = null;
  const flush = () => {
    if ((current as Block | null)?.runs.some((r) => r.text.trim() !== ''))
      blocks.push(current as unknown as Block);
    current = null;
  };
  const open = (kind: Block['kind'], prefix = '') => {
    flush();
    current = { kind, prefix, depth: lists.length, runs: [] };
  };
  const tokens = html.match(/<\/?[a-z0-9]+[^>]*>|[^<]+/gi) ?? [];
  for (const token of tokens) {
    const tag = /^<(\/?)([a-z0-9]+)/i.exec(token);
    if (!tag) {
      const text = decodeEntities(token.replace(/\s+/g, ' '));
      if (!current) {
        if (text.trim() === '') continue;
        open(lists.length ? 'li' : 'p');
      }
      (current as Block | null)?.runs.push({
        text,
        bold: bold > 0,
        italic: italic > 0,
        underline: underline > 0,
      });
      continue;
    }
    const closing = tag[1] === '/';
    const name = (tag[2] ?? '').toLowerCase();
    switch (name) {
      case 'b':
      case 'strong':
        bold += closing ? -1 : 1;
        break;
      case 'i':
      case 'em':
        italic += closing ? -1 : 1;
        break;
      case 'u':
        underline += closing ? -1 : 1;
        break;
      case 'br':
        if (current)
          (current as Block).runs.push({ text: '\n', bold: false, italic: false, underline: false });
        break;
      case 'ul':
      case 'ol':
        flush();
        if (closing) lists.pop();
        else lists.push({ ordered: name === 'ol', n: 0 });
        break;
      case 'li': {
        if (closing) {
          flush();
          break;
        }
        const list = lists[lists.length - 1];
        if (list) list.n += 1;
        open('li', list?.ordered ? `${list.n}.` : '•');
        break;
      }
      case 'p':
        // A paragraph inside a list item continues the item rather than starting a new block.
        if (lists.length && current && (current as Block).kind === 'li') break;
        if (closing) flush();
        else open('p');
        break;
      case 'h1':
      case 'h2':
        if (closing) flush();
        else open(name);
        break;
      default:
        break;
    }
    bold = Math.max(0, bold);
    italic = Math.max(0, italic);
    underline = Math.max(0, underline);
  }
  flush();
  for (const b of blocks) {
    const first = b.runs[0];
    if (first) first.text = first.text.replace(/^\s+/, '');
    const last = b.runs[b.runs.length - 1];
    if (last) last.text = last.text.replace(/\s+$/, '');
  }
  return blocks;
}

const SIZES: Record<Block['kind'], number> = { h1: 12, h2: 10.5, p: 9, li: 9 };

function fontFor(bold: boolean, italic: boolean): string {
  if (bold && italic) return 'boldItalic';
  if (bold) return 'bold';
  if (italic) return 'italic';
  return 'regular';
}

/** Notes headings sit below the report's own H1 (title) and H2 (sections). */
const HEADING_TAG: Record<'h1' | 'h2', string> = { h1: 'H3', h2: 'H4' };

/** Lines a paragraph keeps together at a page break: never fewer on either page (widows and orphans). */
const MIN_LINES = 2;

/**
 * Draws the notes and tags them under `parent`: headings, paragraphs, and each run of list items
 * as one list (L > LI > Lbl + LBody), so a screen reader meets the same structure as the editor's.
 * A paragraph may flow onto the next page, but never leaves fewer than two lines on either page,
 * and a heading keeps the first two lines of what follows it on its page.
 */
export function renderNotes(
  doc: PDFKit.PDFDocument,
  html: string,
  area: {
    x: number;
    width: number;
    bottomLimit: () => number;
    /**
     * Called as each paragraph, heading or item begins (the report's pagination record); it may
     * return a line above the page's bottom that this block must not pass, so its last lines go
     * over to the next page (the report's second pass, for its sign-off).
     */
    onBlock?: () => number | undefined;
    /** Called as each block ends, with the height of one of its lines (points). */
    onBlockEnd?: (lineHeight: number) => void;
  },
  parent: PDFKit.PDFStructureElement,
) {
  const blocks = notesToBlocks(html);
  let list: PDFKit.PDFStructureElement | null = null;
  const closeList = () => {
    list?.end();
    list = null;
  };
  for (const block of blocks) {
    const size = SIZES[block.kind];
    const heading = block.kind === 'h1' || block.kind === 'h2';
    const indent = block.kind === 'li' ? 14 + Math.max(0, block.depth - 1) * 12 : 0;
    const x = area.x + indent;
    const width = area.width - indent;
    const cut = area.onBlock?.();
    const runs = block.runs.filter((r) => r.text !== '');
    doc.font(heading ? 'bold' : 'regular').fontSize(size);
    const lineHeight = doc.currentLineHeight(true) + 1;
    const lines = Math.max(
      1,
      Math.round(doc.heightOfString(runs.map((r) => r.text).join(''), { width, lineGap: 1 }) / lineHeight),
    );
    // A heading needs room for itself and two lines of what follows.
    const room = heading ? lineHeight + 3 + MIN_LINES * 12.5 : 0;
    if (doc.y + room > area.bottomLimit()) doc.addPage();
    if (heading) doc.y += 3;
    const bottom = Math.min(area.bottomLimit(), cut ?? Infinity);
    const fit = Math.floor((bottom - doc.y + 0.01) / lineHeight);
    let limit: number | null = cut ?? null;
    if (!heading && lines > fit) {
      // It would break here: keep at least two lines on each page.
      const keep = lines - fit < MIN_LINES ? lines - MIN_LINES : fit;
      if (keep < MIN_LINES) {
        doc.addPage();
        limit = null;
      } else limit = doc.y + keep * lineHeight + 0.01;
    } else if (heading && fit < 1) doc.addPage();
    // The break is made by lowering this page's bottom for the block's lines (pdfkit flows the
    // rest onto the next page, whose bottom is the usual one).
    const page = doc.page;
    const pageBottom = page.margins.bottom;
    if (limit !== null && limit < page.height - pageBottom) page.margins.bottom = page.height - limit;
    const y = doc.y;
    const drawRuns = () => {
      doc.fillColor('#3e4c59');
      runs.forEach((run, i) => {
        const last = i === runs.length - 1;
        doc.font(fontFor(run.bold || heading, run.italic)).fontSize(size);
        const opts = { width, continued: !last, underline: run.underline, lineGap: 1 };
        if (i === 0) doc.text(run.text, x, y, opts);
        else doc.text(run.text, opts);
      });
    };
    if (block.kind === 'li') {
      if (!list) {
        list = doc.struct('L');
        parent.add(list);
      }
      const item = doc.struct('LI');
      list.add(item);
      item.add(
        doc.struct('Lbl', {}, () =>
          doc
            .fillColor('#3e4c59')
            .font('regular')
            .fontSize(size)
            .text(block.prefix, x - 17, y, { width: 12, align: 'right', lineBreak: false }),
        ),
      );
      item.add(doc.struct('LBody', {}, drawRuns));
      item.end();
    } else {
      closeList();
      parent.add(doc.struct(heading ? HEADING_TAG[block.kind as 'h1' | 'h2'] : 'P', {}, drawRuns));
    }
    page.margins.bottom = pageBottom;
    area.onBlockEnd?.(lineHeight);
    doc.y += heading ? 2 : 2.5;
  }
  closeList();
  doc.x = area.x;
}
