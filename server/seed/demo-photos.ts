import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { Db } from '../db/client';
import { sampleFiles } from '../db/schema';
import { makeCopiesOfPhoto } from '../modules/photos/make-photo-copies';
import type { Storage } from '../storage/storage';

// The demo's sample photos, drawn by the project: a simple studio picture of each item as SVG,
// rendered to JPEG by sharp at seed time (no outside images). Each photo is stored as a customer's
// upload would be and gets its thumbnail and display copies at once (docs/product/photos.md).

export const DEMO_DRAWINGS = [
  'tea-service',
  'pocket-watch',
  'vase',
  'book',
  'coin',
  'landscape',
  'brooch',
  'baseball',
  'mantel-clock',
  'candlesticks',
] as const;
export type DemoDrawing = (typeof DEMO_DRAWINGS)[number];

const W = 800;
const H = 600;

/** A grey studio backdrop with a soft shadow under the item. */
const studio = (shadowWidth: number, body: string) => `
<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#f4f1ea"/><stop offset="0.62" stop-color="#ddd6c8"/>
      <stop offset="1" stop-color="#c9c0ae"/>
    </linearGradient>
    <radialGradient id="silver" cx="0.35" cy="0.3" r="0.8">
      <stop offset="0" stop-color="#ffffff"/><stop offset="0.45" stop-color="#c9ccd1"/>
      <stop offset="1" stop-color="#7d828a"/>
    </radialGradient>
    <radialGradient id="gold" cx="0.35" cy="0.3" r="0.8">
      <stop offset="0" stop-color="#fff4c2"/><stop offset="0.5" stop-color="#d9a93b"/>
      <stop offset="1" stop-color="#8a6212"/>
    </radialGradient>
  </defs>
  <rect width="${W}" height="${H}" fill="url(#bg)"/>
  <ellipse cx="400" cy="520" rx="${shadowWidth}" ry="26" fill="#000" opacity="0.18"/>
  ${body}
</svg>`;

const DRAWINGS: Record<DemoDrawing, string> = {
  'tea-service': studio(
    300,
    `<ellipse cx="400" cy="500" rx="290" ry="40" fill="url(#silver)" stroke="#6b7078" stroke-width="3"/>
     <path d="M300 470 Q280 330 400 320 Q520 330 500 470 Z" fill="url(#silver)" stroke="#5f646b" stroke-width="3"/>
     <path d="M300 400 Q220 380 200 300 Q230 320 300 360" fill="none" stroke="#7d828a" stroke-width="14" stroke-linecap="round"/>
     <path d="M500 360 Q590 340 580 420 Q570 460 500 450" fill="none" stroke="#2b2320" stroke-width="14"/>
     <ellipse cx="400" cy="322" rx="70" ry="14" fill="#a9adb4" stroke="#5f646b" stroke-width="2"/>
     <circle cx="400" cy="300" r="14" fill="url(#silver)" stroke="#5f646b" stroke-width="2"/>
     <path d="M360 410 q40 -30 80 0 q-40 30 -80 0z" fill="none" stroke="#8d9199" stroke-width="3"/>
     <path d="M160 480 Q150 420 210 410 Q270 420 260 480 Z" fill="url(#silver)" stroke="#5f646b" stroke-width="3"/>
     <path d="M560 480 Q545 400 615 395 Q680 400 660 480 Z" fill="url(#silver)" stroke="#5f646b" stroke-width="3"/>`,
  ),
  'pocket-watch': studio(
    170,
    `<path d="M400 95 q-30 -40 0 -70 q30 30 0 70" fill="none" stroke="#b58a2a" stroke-width="10"/>
     <rect x="385" y="95" width="30" height="36" rx="6" fill="url(#gold)" stroke="#7a5510" stroke-width="2"/>
     <circle cx="400" cy="320" r="190" fill="url(#gold)" stroke="#7a5510" stroke-width="4"/>
     <circle cx="400" cy="320" r="160" fill="#fbf8ef" stroke="#a07a22" stroke-width="3"/>
     ${Array.from({ length: 12 }, (_, i) => {
       const a = (i * Math.PI) / 6;
       const x1 = 400 + Math.sin(a) * 140;
       const y1 = 320 - Math.cos(a) * 140;
       const x2 = 400 + Math.sin(a) * 122;
       const y2 = 320 - Math.cos(a) * 122;
       return `<line x1="${x1.toFixed(1)}" y1="${y1.toFixed(1)}" x2="${x2.toFixed(1)}" y2="${y2.toFixed(1)}" stroke="#222" stroke-width="${i % 3 === 0 ? 7 : 3}"/>`;
     }).join('')}
     <line x1="400" y1="320" x2="400" y2="215" stroke="#1d2a4d" stroke-width="7" stroke-linecap="round"/>
     <line x1="400" y1="320" x2="470" y2="360" stroke="#1d2a4d" stroke-width="9" stroke-linecap="round"/>
     <circle cx="400" cy="385" r="26" fill="none" stroke="#999" stroke-width="2"/>
     <circle cx="400" cy="320" r="9" fill="#1d2a4d"/>`,
  ),
  vase: studio(
    150,
    `<path d="M360 90 h80 v20 C440 150 430 180 470 210 C560 280 560 430 480 490 h-160 C240 430 240 280 330 210 C370 180 360 150 360 110 Z"
       fill="#f8f8f4" stroke="#9aa3b5" stroke-width="3"/>
     <path d="M300 300 q100 -40 200 0" fill="none" stroke="#1f3f8f" stroke-width="10"/>
     <path d="M296 430 q104 40 208 0" fill="none" stroke="#1f3f8f" stroke-width="10"/>
     <path d="M320 370 q30 -50 60 -10 q30 40 60 -10 q30 -40 50 0" fill="none" stroke="#2a4fa8" stroke-width="8" stroke-linecap="round"/>
     <circle cx="330" cy="365" r="10" fill="#2a4fa8"/>
     <path d="M360 160 q40 -20 80 0" fill="none" stroke="#2a4fa8" stroke-width="6"/>
     <rect x="355" y="480" width="90" height="14" fill="#1f3f8f" opacity="0.8"/>`,
  ),
  book: studio(
    230,
    `<path d="M220 140 L560 120 L600 470 L250 500 Z" fill="#2f4a3a" stroke="#1b2b21" stroke-width="4"/>
     <path d="M220 140 L250 500 L230 515 L200 155 Z" fill="#203427"/>
     <path d="M600 470 L250 500 L252 512 L604 482 Z" fill="#efe3c4" stroke="#cbb98f" stroke-width="2"/>
     <rect x="300" y="200" width="220" height="150" transform="rotate(-4 410 275)" fill="none" stroke="#c9a548" stroke-width="4"/>
     <text x="410" y="265" transform="rotate(-4 410 275)" text-anchor="middle" font-family="DejaVu Serif, serif" font-size="34" font-weight="bold" fill="#d8b552">MOBY-DICK</text>
     <text x="410" y="310" transform="rotate(-4 410 275)" text-anchor="middle" font-family="DejaVu Serif, serif" font-size="20" fill="#d8b552">OR, THE WHALE</text>
     <path d="M350 420 q60 -30 120 -6 q-20 20 -60 16 q-40 10 -60 -10z" fill="#c9a548"/>`,
  ),
  coin: studio(
    180,
    `<circle cx="400" cy="300" r="200" fill="url(#silver)" stroke="#5b6068" stroke-width="6"/>
     <circle cx="400" cy="300" r="178" fill="none" stroke="#8a8f97" stroke-width="3" stroke-dasharray="4 6"/>
     <path d="M330 380 q-20 -90 40 -150 q60 -40 110 10 q20 30 10 60 q-10 10 -5 30 q10 30 -20 50 q-20 10 -40 0 q-20 20 -50 20 z"
       fill="#b7bbc2" stroke="#6b7078" stroke-width="3"/>
     <path d="M350 225 q30 -40 90 -30" fill="none" stroke="#6b7078" stroke-width="4"/>
     <text x="400" y="170" text-anchor="middle" font-family="DejaVu Serif, serif" font-size="22" font-weight="bold" fill="#5b6068" letter-spacing="4">E PLURIBUS UNUM</text>
     <text x="400" y="460" text-anchor="middle" font-family="DejaVu Serif, serif" font-size="40" font-weight="bold" fill="#5b6068" letter-spacing="8">1893</text>`,
  ),
  landscape: studio(
    260,
    `<rect x="130" y="80" width="540" height="420" fill="#b8862b" stroke="#7a5510" stroke-width="6"/>
     <rect x="160" y="110" width="480" height="360" fill="#e9d7a8"/>
     <rect x="170" y="120" width="460" height="200" fill="#f2c98a"/>
     <circle cx="520" cy="200" r="36" fill="#fff1c9"/>
     <path d="M170 300 L280 200 L360 270 L450 180 L630 300 L630 340 L170 340 Z" fill="#6f7f8c"/>
     <path d="M170 330 Q400 300 630 330 L630 460 L170 460 Z" fill="#5c7444"/>
     <path d="M300 460 Q380 380 470 340 Q520 330 630 345 L630 370 Q520 360 480 380 Q400 420 360 460 Z" fill="#8fb3c8"/>
     <path d="M220 460 L230 360 L250 460 Z" fill="#2f4128"/>
     <path d="M200 460 L212 380 L226 460 Z" fill="#2f4128"/>`,
  ),
  brooch: studio(
    160,
    `<path d="M250 300 L400 200 L550 300 L400 400 Z" fill="#e6e8ec" stroke="#8d939c" stroke-width="6"/>
     <path d="M300 300 L400 235 L500 300 L400 365 Z" fill="none" stroke="#aab0b9" stroke-width="4"/>
     <rect x="180" y="285" width="80" height="30" rx="6" fill="#e6e8ec" stroke="#8d939c" stroke-width="4"/>
     <rect x="540" y="285" width="80" height="30" rx="6" fill="#e6e8ec" stroke="#8d939c" stroke-width="4"/>
     ${[
       { x: 400, y: 300, r: 30 },
       { x: 340, y: 300, r: 14 },
       { x: 460, y: 300, r: 14 },
       { x: 400, y: 255, r: 12 },
       { x: 400, y: 345, r: 12 },
       { x: 220, y: 300, r: 10 },
       { x: 580, y: 300, r: 10 },
     ]
       .map(
         ({ x, y, r }) =>
           `<circle cx="${x}" cy="${y}" r="${r}" fill="#ffffff" stroke="#9fb8d6" stroke-width="3"/>` +
           `<path d="M${x - r / 2} ${y} L${x} ${y - r / 2} L${x + r / 2} ${y}" fill="none" stroke="#c7d6ea" stroke-width="2"/>`,
       )
       .join('')}`,
  ),
  baseball: studio(
    170,
    `<circle cx="400" cy="300" r="190" fill="#f1e8d6" stroke="#b9ab8f" stroke-width="4"/>
     <path d="M265 165 Q340 300 265 435" fill="none" stroke="#b3261e" stroke-width="5" stroke-dasharray="10 8"/>
     <path d="M535 165 Q460 300 535 435" fill="none" stroke="#b3261e" stroke-width="5" stroke-dasharray="10 8"/>
     <path d="M330 250 q20 -20 40 0 t40 0 t40 -5" fill="none" stroke="#2a3550" stroke-width="3"/>
     <path d="M335 300 q25 -25 50 -2 t50 -4" fill="none" stroke="#2a3550" stroke-width="3"/>
     <path d="M340 350 q15 15 35 -5 t45 5 t30 -10" fill="none" stroke="#2a3550" stroke-width="3"/>`,
  ),
  'mantel-clock': studio(
    230,
    `<path d="M230 500 L570 500 L550 460 L250 460 Z" fill="url(#gold)" stroke="#8a6212" stroke-width="3"/>
     <rect x="270" y="170" width="260" height="290" rx="10" fill="#3a2a1a" stroke="#8a6212" stroke-width="5"/>
     <path d="M260 170 Q400 60 540 170 Z" fill="url(#gold)" stroke="#8a6212" stroke-width="3"/>
     <circle cx="400" cy="290" r="92" fill="url(#gold)" stroke="#8a6212" stroke-width="4"/>
     <circle cx="400" cy="290" r="74" fill="#fbf7ec" stroke="#b08d3a" stroke-width="2"/>
     ${Array.from({ length: 12 }, (_, i) => {
       const a = (i * Math.PI) / 6;
       return `<line x1="${400 + 62 * Math.sin(a)}" y1="${290 - 62 * Math.cos(a)}" x2="${400 + 70 * Math.sin(a)}" y2="${290 - 70 * Math.cos(a)}" stroke="#2a2a2a" stroke-width="3"/>`;
     }).join('')}
     <line x1="400" y1="290" x2="400" y2="238" stroke="#1f1f1f" stroke-width="5" stroke-linecap="round"/>
     <line x1="400" y1="290" x2="440" y2="312" stroke="#1f1f1f" stroke-width="4" stroke-linecap="round"/>
     <rect x="330" y="400" width="140" height="40" rx="6" fill="url(#gold)" stroke="#8a6212" stroke-width="2"/>`,
  ),
  candlesticks: studio(
    250,
    `${[300, 500]
      .map(
        (x) =>
          `<path d="M${x - 70} 505 L${x + 70} 505 L${x + 40} 470 L${x - 40} 470 Z" fill="url(#silver)" stroke="#6b7078" stroke-width="3"/>` +
          `<rect x="${x - 16}" y="190" width="32" height="280" fill="url(#silver)" stroke="#6b7078" stroke-width="3"/>` +
          `<ellipse cx="${x}" cy="330" rx="30" ry="14" fill="url(#silver)" stroke="#6b7078" stroke-width="2"/>` +
          `<path d="M${x - 42} 190 L${x + 42} 190 L${x + 26} 160 L${x - 26} 160 Z" fill="url(#silver)" stroke="#6b7078" stroke-width="3"/>` +
          `<rect x="${x - 9}" y="95" width="18" height="65" fill="#f6f0dc" stroke="#cbbf99" stroke-width="2"/>`,
      )
      .join('')}`,
  ),
};

/** The JPEG of one demo drawing (800 x 600). */
export function drawDemoPhoto(drawing: DemoDrawing): Promise<Buffer> {
  return sharp(Buffer.from(DRAWINGS[drawing])).jpeg({ quality: 82 }).toBuffer();
}

/** Stores the drawing as the sample's photo, as an upload would, and makes its copies. */
export async function addDemoPhoto(
  deps: { db: Db; storage: Storage },
  sampleId: number,
  drawing: DemoDrawing,
  uploadDate: Date,
): Promise<void> {
  const jpeg = await drawDemoPhoto(drawing);
  const fileName = `${randomBytes(16).toString('hex')}.jpg`;
  await deps.storage.put(`uploads/${fileName}`, jpeg);
  const [row] = await deps.db
    .insert(sampleFiles)
    .values({
      sampleId,
      fileName,
      originalName: `${drawing}.jpg`,
      fileType: 'image/jpeg',
      fileSize: jpeg.length,
      fileCategory: 'photo',
      uploadDate,
      copiesState: 'pending',
    })
    .returning({ id: sampleFiles.id });
  if (row) await makeCopiesOfPhoto(deps, row.id);
}
