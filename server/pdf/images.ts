import { createHash } from 'node:crypto';
import { loadPdfLibs } from './pdf-libs';

// The lab's logo and the analysts' signatures, prepared once per process instead of once per report.
//
// pdfkit reads a PNG's image data byte by byte into a JavaScript array (png-js) and, for a PNG with
// transparency, decodes every pixel in JavaScript to split off the alpha channel and deflates both
// again — for every document. The profile of issuing showed that as the largest single cost after
// text layout (docs/benchmarks.md, "Report issuing"), for the same two or three images every time.
// So pdfkit's own image code runs once per distinct image against a recorder that keeps the PDF
// objects it creates (dictionaries and stream bytes); each document then gets those objects written
// as they are. The page content, the image names (I1, I2, …) and the image objects stay what pdfkit
// would have written. Images are keyed by their content's SHA-256: a new logo is a new entry.

type Dict = Record<string, unknown>;

/** A PDF object as pdfkit's image code created it: its dictionary then, at the end, and its stream. */
class RecordedRef {
  readonly initial: Dict;
  readonly chunks: Uint8Array[] = [];
  ended = false;
  constructor(
    public data: Dict,
    private readonly onEnd: () => void,
  ) {
    this.initial = { ...data };
  }
  write(chunk: Uint8Array) {
    this.chunks.push(chunk);
  }
  end(chunk?: Uint8Array) {
    if (chunk) this.chunks.push(chunk);
    this.ended = true;
    this.onEnd();
  }
}

type PdfRef = { data: Dict; end(chunk?: Uint8Array): void };
type PdfDoc = { ref(data?: Dict): PdfRef; _imageCount: number };
type PdfkitImage = { width: number; height: number; orientation?: number; embed(doc: unknown): void };

/** One image's PDF objects, in the order pdfkit created them; the first is the image XObject. */
export type PreparedImage = {
  width: number;
  height: number;
  orientation?: number;
  refs: RecordedRef[];
  /** Indexes into `refs` in the order pdfkit ended (wrote) them. */
  endOrder: number[];
};

const MAX_PREPARED = 32;
const prepared = new Map<string, Promise<PreparedImage | null>>();

type Opener = { openImage(src: Buffer): PdfkitImage };
/** A PDF document used only to open images with pdfkit's own readers; it never writes anything. */
let opener: Opener | undefined;

async function record(src: Buffer): Promise<PreparedImage | null> {
  const { PDFDocument } = await loadPdfLibs();
  opener ??= new PDFDocument({ font: null as unknown as string }) as unknown as Opener;
  let image: PdfkitImage;
  try {
    image = opener.openImage(src);
  } catch {
    return null; // Not an image pdfkit can read.
  }
  const refs: RecordedRef[] = [];
  const endOrder: number[] = [];
  // pdfkit ends the image XObject itself last, after an alpha channel was split off (asynchronously).
  const done = new Promise<void>((resolve) => {
    const recorder = {
      ref(data: Dict = {}) {
        const index = refs.length;
        const ref = new RecordedRef(data, () => {
          endOrder.push(index);
          if (index === 0) resolve();
        });
        refs.push(ref);
        return ref;
      },
    };
    image.embed(recorder);
  });
  await done;
  return { width: image.width, height: image.height, orientation: image.orientation, refs, endOrder };
}

/** The prepared image for these bytes (null when pdfkit cannot read them), made on first use. */
export function prepareImage(src: Buffer): Promise<PreparedImage | null> {
  const key = createHash('sha256').update(src).digest('hex');
  let entry = prepared.get(key);
  if (!entry) {
    if (prepared.size >= MAX_PREPARED) prepared.delete(prepared.keys().next().value ?? '');
    entry = record(src).catch(() => null);
    prepared.set(key, entry);
  }
  return entry;
}

/** Dictionary values that name another recorded object become that object of the document. */
function mapRefs(value: unknown, real: Map<RecordedRef, PdfRef>): unknown {
  if (value instanceof RecordedRef) return real.get(value);
  if (Array.isArray(value)) return value.map((v) => mapRefs(v, real));
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapRefs(v, real)]));
  return value;
}

/**
 * What `doc.image()` takes for a prepared image in this document: named like pdfkit names an image
 * it opens (I1, I2, … in order), its objects written on first use, as pdfkit would write them. For
 * an unreadable image (null) it uses up a name and throws, as pdfkit's openImage does.
 */
export function imageFor(doc: PDFKit.PDFDocument, image: PreparedImage | null) {
  const d = doc as unknown as PdfDoc;
  const label = `I${++d._imageCount}`;
  if (!image) throw new Error('pdfkit cannot read this image');
  const out = {
    width: image.width,
    height: image.height,
    orientation: image.orientation,
    label,
    obj: null as PdfRef | null,
    embed(target: PdfDoc) {
      const real = new Map<RecordedRef, PdfRef>();
      // Created in pdfkit's order with the dictionaries pdfkit created them with (whether pdfkit
      // compresses a stream depends on that), then completed and written in pdfkit's order.
      for (const r of image.refs) real.set(r, target.ref(mapRefs(r.initial, real) as Dict));
      for (const index of image.endOrder) {
        const r = image.refs[index];
        const ref = r && real.get(r);
        if (!r || !ref) continue;
        Object.assign(ref.data, mapRefs(r.data, real));
        ref.end(r.chunks.length === 1 ? r.chunks[0] : r.chunks.length ? Buffer.concat(r.chunks) : undefined);
      }
      const first = image.refs[0];
      out.obj = (first && real.get(first)) ?? null;
    },
  };
  return out as unknown as Buffer;
}
