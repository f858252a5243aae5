import { formatValueRange } from '../../../common/domain/valuation';
import { prepareImage } from '../../pdf/images';
import {
  container,
  drawFooters,
  drawH2,
  drawLabHeader,
  drawQr,
  drawTableHead,
  drawTitle,
  INK,
  longDate,
  MUTED,
  openTaggedA4,
  rule,
  tableRow,
  tag,
} from '../../pdf/kit';
import type { ReportPdfInput } from '../reports/report-pdf';
import { addSignaturePlaceholder } from '../signing/pdf-placeholder';
import type { ScheduleCategoryTotal, ScheduleTotal } from './schedule-totals';

// A collection's schedule (docs/product/schedules.md): the lab's signed list of a collection's items
// with the value each issued report states, and the totals per currency and per category. Drawn with
// the report's fonts, colours, header and footer, tagged (PDF/UA-1) the same way, and signed by the
// same certificate (../signing).

export type ScheduleItem = {
  displayId: string;
  itemName: string;
  category: string;
  reportCode: string;
  valueType: string | null;
  value: { low: number | null; high: number; currency: string } | null;
};

export type SchedulePdfInput = {
  lab: ReportPdfInput['lab'];
  collection: { name: string; purpose: string; ownerName: string };
  items: ScheduleItem[];
  totals: { perCurrency: ScheduleTotal[]; perCategory: ScheduleCategoryTotal[]; unvalued: number };
  scheduleCode: string;
  issuedAt: Date;
  issuedBy: string;
  verifyUrl: string;
  signing?: { signerName: string; location: string; contactInfo: string };
};

const TITLE = 'Schedule of Valuations';

type Column = { title: string; width: number; align: 'left' | 'right' };

const total = (t: { low: number; high: number; currency: string }) =>
  formatValueRange({ low: t.low, high: t.high, currency: t.currency });

export async function renderSchedulePdf(input: SchedulePdfInput): Promise<Buffer> {
  const title = `${TITLE} ${input.scheduleCode}`;
  const { doc, done, root, left, width } = await openTaggedA4(title, {
    Author: input.lab.name,
    Subject: `${input.collection.name}: ${input.items.length} items`,
    Keywords: `schedule ${input.scheduleCode}`,
    CreationDate: input.issuedAt,
  });
  const bottomLimit = () => doc.page.height - doc.page.margins.bottom;
  const logo = input.lab.logo ? await prepareImage(input.lab.logo) : null;

  header();
  details();
  table(
    'Items',
    [
      { title: 'Sample ID', width: 0.12, align: 'left' },
      { title: 'Item', width: 0.2, align: 'left' },
      { title: 'Category', width: 0.14, align: 'left' },
      { title: 'Report', width: 0.13, align: 'left' },
      { title: 'Value type', width: 0.16, align: 'left' },
      { title: 'Value', width: 0.25, align: 'right' },
    ],
    input.items.map((i) => [
      i.displayId,
      i.itemName,
      i.category,
      i.reportCode,
      i.valueType ?? 'Not valued',
      i.value ? formatValueRange(i.value) : 'No value stated',
    ]),
  );
  table(
    'Totals per currency',
    [
      { title: 'Currency', width: 0.3, align: 'left' },
      { title: 'Items valued', width: 0.3, align: 'right' },
      { title: 'Total', width: 0.4, align: 'right' },
    ],
    input.totals.perCurrency.map((t) => [t.currency, String(t.items), total(t)]),
    input.totals.perCurrency.length ? undefined : 'No item of this collection has a stated value.',
  );
  table(
    'Totals per category',
    [
      { title: 'Category', width: 0.3, align: 'left' },
      { title: 'Currency', width: 0.15, align: 'left' },
      { title: 'Items valued', width: 0.15, align: 'right' },
      { title: 'Total', width: 0.4, align: 'right' },
    ],
    input.totals.perCategory.map((t) => [t.category, t.currency, String(t.items), total(t)]),
    input.totals.perCategory.length ? undefined : 'No item of this collection has a stated value.',
  );
  note();
  verification();
  root.end();
  drawFooters(doc, { left, width }, `${input.lab.name} · Schedule ${input.scheduleCode}`);
  if (input.signing)
    addSignaturePlaceholder(doc, {
      name: input.signing.signerName,
      reason: `Issued schedule ${input.scheduleCode}`,
      location: input.signing.location,
      contactInfo: input.signing.contactInfo,
      signingTime: input.issuedAt,
    });
  doc.end();
  return done;

  /** Lab identity on the left, the schedule's code block on the right (as on a report). */
  function header() {
    drawLabHeader(
      doc,
      root,
      { left, width },
      {
        lab: input.lab,
        logo: logo ?? undefined,
        centreLogo: false,
        nameGap: false,
        codeLabel: 'SCHEDULE CODE',
        code: input.scheduleCode,
        lines: [`Issued ${longDate(input.issuedAt)}`],
      },
    );
    drawTitle(
      doc,
      root,
      { left, width },
      TITLE,
      'The items of one collection with the values stated in their issued reports',
    );
  }

  function details() {
    const sect = container(doc, root, 'Sect');
    sectionHeading(sect, 'Collection');
    const pairs: [string, string][] = [
      ['Collection', input.collection.name],
      ['Purpose', input.collection.purpose],
      ['Client', input.collection.ownerName],
      ['Items', String(input.items.length)],
      ['Issued', longDate(input.issuedAt)],
      ['Issued by', input.issuedBy],
    ];
    const list = container(doc, sect, 'L');
    const colW = width / 2;
    pairs.forEach(([label, value], i) => {
      const x = left + (i % 2) * colW;
      const y = i % 2 === 0 ? doc.y : doc.y - 24;
      const li = container(doc, list, 'LI');
      tag(doc, li, 'Lbl', () =>
        doc
          .fillColor(MUTED)
          .font('regular')
          .fontSize(7.5)
          .text(label.toUpperCase(), x, y, { width: colW - 10 }),
      );
      tag(doc, li, 'LBody', () =>
        doc
          .fillColor(INK)
          .font('bold')
          .fontSize(10)
          .text(value, x, doc.y + 1, { width: colW - 10, height: 13, ellipsis: true }),
      );
      li.end();
      doc.y = y + 24;
    });
    list.end();
    sect.end();
    doc.y += 8;
  }

  function sectionHeading(parent: PDFKit.PDFStructureElement, text: string, keep = 80) {
    if (doc.y + keep > bottomLimit()) doc.addPage();
    drawH2(doc, parent, { left, width }, text);
  }

  /** A tagged table whose header row repeats (as an artifact) on each following page. */
  function table(heading: string, columns: Column[], rows: string[][], empty?: string) {
    const sect = container(doc, root, 'Sect');
    sectionHeading(sect, heading);
    if (empty) {
      tag(doc, sect, 'P', () =>
        doc.fillColor(MUTED).font('italic').fontSize(9.5).text(empty, left, doc.y, { width }),
      );
      sect.end();
      doc.y += 12;
      return;
    }
    const t = container(doc, sect, 'Table');
    const pad = 5;
    const colX = (ci: number) => left + columns.slice(0, ci).reduce((sum, c) => sum + c.width * width, 0);
    const colW = (ci: number) => (columns[ci]?.width ?? 0) * width;
    const headCell = (c: Column, ci: number, y: number) =>
      doc
        .fillColor('#ffffff')
        .font('bold')
        .fontSize(8)
        .text(c.title.toUpperCase(), colX(ci) + pad, y + 5, { width: colW(ci) - pad * 2, align: c.align });
    const drawHead = (repeated: boolean) =>
      drawTableHead(
        doc,
        t,
        { left, width },
        19,
        columns.map((c, ci) => (y: number) => headCell(c, ci, y)),
        repeated,
      );
    drawHead(false);
    rows.forEach((cells, ri) => {
      doc.font('regular').fontSize(8.5);
      const h =
        Math.max(...cells.map((text, ci) => doc.heightOfString(text, { width: colW(ci) - pad * 2 }))) +
        pad * 2;
      const { y, tr } = tableRow(
        doc,
        t,
        { left, width },
        {
          index: ri,
          height: h,
          bottom: bottomLimit(),
          repeatHead: () => drawHead(true),
        },
      );
      cells.forEach((text, ci) => {
        const c = columns[ci];
        if (!c) return;
        tag(doc, tr, 'TD', () =>
          doc
            .fillColor(INK)
            .font(ci === 0 ? 'bold' : 'regular')
            .fontSize(8.5)
            .text(text, colX(ci) + pad, y + pad, { width: colW(ci) - pad * 2, align: c.align }),
        );
      });
      tr.end();
      doc.y = y + h;
      rule(doc, { left, width }, doc.y, 0.4);
    });
    t.end();
    sect.end();
    doc.y += 14;
  }

  function note() {
    const lines = [
      'Each value is the one stated in the item’s issued report named above, of the value type given, as at that report’s effective date. ' +
        'A range adds its low figures to the low total and its high figures to the high total; amounts in different currencies are never added together.',
      ...(input.totals.unvalued
        ? [
            `${input.totals.unvalued} item${input.totals.unvalued === 1 ? '' : 's'} without a stated value ${input.totals.unvalued === 1 ? 'is' : 'are'} not in the totals.`,
          ]
        : []),
    ];
    for (const line of lines)
      tag(doc, root, 'P', () =>
        doc.fillColor(MUTED).font('italic').fontSize(7.5).text(line, left, doc.y, { width }),
      );
    doc.y += 10;
  }

  function verification() {
    const qrSize = 92;
    if (doc.y + qrSize + 20 > bottomLimit()) doc.addPage();
    const top = doc.y;
    const sect = container(doc, root, 'Sect');
    const textW = width - qrSize - 16;
    tag(doc, sect, 'H2', () =>
      doc
        .fillColor(MUTED)
        .font('regular')
        .fontSize(8)
        .text('VERIFY THIS SCHEDULE', left, top, { width: textW }),
    );
    tag(doc, sect, 'P', () =>
      doc
        .fillColor(INK)
        .font('bold')
        .fontSize(12)
        .text(input.scheduleCode, left, doc.y + 2, { width: textW, characterSpacing: 1.2 }),
    );
    tag(doc, sect, 'P', () =>
      doc
        .fillColor(MUTED)
        .font('regular')
        .fontSize(7.5)
        .text(
          `Scan the code or visit ${input.verifyUrl} to confirm this schedule is authentic: the verification lists its items and their report codes. ` +
            'The document is issued electronically and digitally signed by the laboratory.',
          left,
          doc.y + 2,
          { width: textW },
        ),
    );
    const textBottom = doc.y;
    tag(doc, sect, 'Figure', () => drawQr(doc, input.verifyUrl, left + width - qrSize, top, qrSize), {
      alt: `QR code linking to ${input.verifyUrl}`,
    });
    sect.end();
    doc.y = Math.max(textBottom, top + qrSize) + 8;
  }
}
