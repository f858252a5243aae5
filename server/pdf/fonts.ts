import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { withoutLayoutTables } from './font-tables';

// The fonts of every PDF the lab issues (reports, schedules, invoices, labels): Noto, so any Latin,
// Greek or Cyrillic name prints, always embedded.

const require = createRequire(import.meta.url);
// pdfkit accepts an already-parsed fontkit font. Parsing Noto's tables costs about 40 ms per font
// and document, so each font is parsed once per process with the very fontkit pdfkit depends on.
const fontkit = createRequire(require.resolve('pdfkit'))('fontkit') as { create(buf: Buffer): object };
const fontFile = (pkg: string, file: string) =>
  fontkit.create(
    withoutLayoutTables(readFileSync(require.resolve(`@expo-google-fonts/${pkg}/${file}`))),
  ) as unknown as Buffer;

/** Parsed once per process; pdfkit subsets and embeds them into every document. */
export const FONTS = {
  regular: fontFile('noto-sans', '400Regular/NotoSans_400Regular.ttf'),
  bold: fontFile('noto-sans', '700Bold/NotoSans_700Bold.ttf'),
  italic: fontFile('noto-sans', '400Regular_Italic/NotoSans_400Regular_Italic.ttf'),
  boldItalic: fontFile('noto-sans', '700Bold_Italic/NotoSans_700Bold_Italic.ttf'),
  serifBold: fontFile('noto-serif', '700Bold/NotoSerif_700Bold.ttf'),
};
