// The samples generator of the large benches (search, verification at 10M): realistic names with
// accents, items, e-mails and report codes, COPYed through psql — never row-by-row inserts.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { hashPassword } from '../server/modules/accounts/passwords';
import { PG_BIN } from '../tests/support/postgres';

// Seeded, deterministic choices: the same N gives the same table.
let state = 0x2545f491;
const rand = () => {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 4_294_967_296;
};
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;

const FIRST = [
  'Élise',
  'François',
  'Zoë',
  'Jürgen',
  'Søren',
  'Łukasz',
  'José',
  'María',
  'Noémie',
  'Anaïs',
  'Björn',
  'Inès',
  'Chloé',
  'Renée',
  'André',
  'Małgorzata',
  'Siobhán',
  'Ångström',
  'Hélène',
  'Dvořák',
  'James',
  'Mary',
  'Robert',
  'Patricia',
  'John',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Elizabeth',
  'William',
  'Barbara',
  'Richard',
  'Susan',
  'Thomas',
  'Margaret',
  'Charles',
  'Sarah',
  'Daniel',
  'Emma',
  'Giulia',
  'Matteo',
  'Sofía',
  'Lucía',
  'Hiroshi',
  'Yuki',
  'Priya',
  'Arjun',
  'Fatima',
  'Omar',
];
const LAST = [
  'Dürer',
  'Müller',
  'Lefèvre',
  'García',
  'Núñez',
  'Østergaard',
  'Kowalski',
  "O'Brien",
  'Smith',
  'Jones',
  'Brown',
  'Taylor',
  'Wilson',
  'Davies',
  'Evans',
  'Thomas',
  'Johnson',
  'Roberts',
  'Walker',
  'Wright',
  'Schröder',
  'Bäcker',
  'Côté',
  'Gagné',
  'Pérez',
  'Sánchez',
  'Rodríguez',
  'Fernández',
  'Gómez',
  'Martín',
  'Rossi',
  'Russo',
  'Ferrari',
  'Esposito',
  'Bianchi',
  'Romano',
  'Colombo',
  'Ricci',
  'Marino',
  'Greco',
  'Novák',
  'Svoboda',
  'Dvořáková',
  'Nowak',
  'Wiśniewski',
  'Lindqvist',
  'Håkansson',
  'Nieminen',
  'Virtanen',
  'Çelik',
  'Yamamoto',
  'Tanaka',
  'Sato',
  'Kim',
  'Lee',
  'Park',
  'Chen',
  'Wang',
  'Singh',
  'Patel',
];
const DOMAINS = ['example.com', 'mail.example', 'estates.example', 'gallery.example', 'antiques.example'];
const ADJECTIVE = [
  'Georgian',
  'Victorian',
  'Edwardian',
  'Regency',
  'Art Deco',
  'Art Nouveau',
  'Baroque',
  'Rococo',
  'Empire',
  'Biedermeier',
  'Ming style',
  'Qing',
  'Meiji',
  'Louis XV',
  'Louis XVI',
  'Arts and Crafts',
  'Mid-century',
  'Gilt',
  'Carved',
  'Painted',
  'Enamelled',
  'Inlaid',
  'Lacquered',
  'Chased',
  'Engraved',
];
const MATERIAL = [
  'silver',
  'porcelain',
  'oak',
  'walnut',
  'mahogany',
  'bronze',
  'brass',
  'gold',
  'ivory-free',
  'glass',
  'crystal',
  'faïence',
  'earthenware',
  'jade',
  'pewter',
  'rosewood',
  'satinwood',
  'marble',
  'tortoiseshell-free',
  'papier-mâché',
];
const OBJECT = [
  'teapot',
  'figurine',
  'vase',
  'clock',
  'writing desk',
  'chest of drawers',
  'candelabrum',
  'snuff box',
  'bureau',
  'mirror',
  'tureen',
  'bowl',
  'salver',
  'ewer',
  'urn',
  'plate',
  'cabinet',
  'armchair',
  'pocket watch',
  'brooch',
  'locket',
  'inkwell',
  'globe',
  'music box',
  'jardinière',
  'commode',
  'étagère',
];
const MAKER = [
  'Meissen',
  'Sèvres',
  'Wedgwood',
  'Chippendale',
  'Hepplewhite',
  'Tiffany',
  'Lalique',
  'Gallé',
  'Doulton',
  '',
];
/** One sample in 200,000 carries this word: the "rare word" search. */
const RARE = 'Fabergé';
const CODE_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const STATUSES = [
  'submitted',
  'in-progress',
  'analysis',
  'review',
  'completed',
  'completed',
  'completed',
  'on-hold',
];

const csv = (v: string | number | null) => {
  if (v === null) return '';
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export type Person = { id: number; first: string; last: string; email: string };

/** One CSV line of COPY samples(...). */
function sampleLine(i: number, customers: Person[], staffIds: number[], now: number): string {
  const owner = customers[Math.floor(rand() * customers.length)] as Person;
  const maker = pick(MAKER);
  const item = `${maker ? `${maker} ` : ''}${pick(ADJECTIVE)} ${pick(MATERIAL)} ${pick(OBJECT)}${
    i % 200_000 === 7 ? ` by ${RARE}` : ''
  }`;
  const status = pick(STATUSES);
  const submitted = new Date(now - Math.floor(rand() * 5 * 365 * 86_400_000));
  const updated = new Date(Math.min(now, submitted.getTime() + Math.floor(rand() * 60 * 86_400_000)));
  const assigned = rand() < 0.85 ? pick(staffIds) : null;
  let code: string | null = null;
  if (status === 'completed') {
    code = '';
    for (let k = 0; k < 8; k++) code += CODE_CHARS[Math.floor(rand() * CODE_CHARS.length)];
  }
  const urgency = rand() < 0.15 ? 'urgent' : 'standard';
  return [
    owner.id,
    csv(`${owner.first} ${owner.last}`),
    csv(owner.email),
    csv(item),
    'other',
    csv('Bench sample'),
    status,
    submitted.toISOString(),
    updated.toISOString(),
    assigned ?? '',
    urgency,
    code ?? '',
  ].join(',');
}

/** The columns each mode's lines fill, in order. */
const COLUMNS = {
  search: `user_id, submitter_name, submitter_email, item_name, category, description, status,
      submission_date, last_updated, assigned_staff_id, urgency_level, report_code`,
  issued: `user_id, submitter_name, submitter_email, item_name, category, description, status,
      submission_date, last_updated, assigned_staff_id, urgency_level, report_code, report_generated,
      report_generated_at, report_generated_by`,
} as const;

/**
 * COPYs `count` samples through psql. Mode `search`: the search bench's mix of statuses, a report
 * code on completed samples. Mode `issued`: every sample completed with an issued report whose
 * code is `reportCodeOf(i)` (unique by construction), its analyst assigned and named as the issuer.
 */
export async function copySamples(
  url: string,
  count: number,
  customers: Person[],
  staffIds: number[],
  mode: keyof typeof COLUMNS = 'search',
) {
  const psql = spawn(join(PG_BIN, 'psql'), [
    url,
    '-v',
    'ON_ERROR_STOP=1',
    '-c',
    `\\copy samples (${COLUMNS[mode]}) from stdin with (format csv)`,
  ]);
  let err = '';
  psql.stderr.on('data', (d) => (err += d));
  const done = new Promise<void>((resolve, reject) =>
    psql.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`psql exited ${code}: ${err}`)))),
  );
  const now = Date.now();
  const seen = new Set<string>();
  let chunk = '';
  for (let i = 1; i <= count; i++) {
    let line: string;
    if (mode === 'issued') line = issuedSampleLine(i, customers, staffIds, now);
    else {
      line = sampleLine(i, customers, staffIds, now);
      // Report codes are unique: a rare repeat is dropped.
      const code = line.slice(line.lastIndexOf(',') + 1);
      if (code) {
        if (seen.has(code)) line = line.slice(0, line.lastIndexOf(',') + 1);
        else if (seen.size < 3_000_000) seen.add(code);
      }
    }
    chunk += `${line}\n`;
    if (chunk.length > 1 << 20) {
      if (!psql.stdin.write(chunk)) await new Promise((r) => psql.stdin.once('drain', r));
      chunk = '';
    }
    if (i % 1_000_000 === 0) console.log(`  … ${i.toLocaleString('en-US')} rows sent`);
  }
  psql.stdin.end(chunk);
  await done;
}

/**
 * The i-th seeded report's code (i from 1): i through a bijection of the 40-bit numbers (an odd
 * multiplier and an xor-shift, both invertible), written as 8 characters of the 32-letter report
 * code alphabet (32^8 = 2^40). Distinct for distinct i, scattered, and computable again by a later
 * run that reuses the database without storing any list.
 */
export function reportCodeOf(i: number): string {
  const MASK = (1n << 40n) - 1n;
  let x = (BigInt(i) * 0x9e3779b1n + 0x5bd1e995n) & MASK;
  x ^= x >> 19n;
  x = (x * 0xcb1ab31fn) & MASK;
  let code = '';
  for (let k = 0; k < 8; k++) {
    code += CODE_CHARS[Number(x & 31n)];
    x >>= 5n;
  }
  return code;
}

/** One CSV line of COPY samples(...) in mode `issued`. */
function issuedSampleLine(i: number, customers: Person[], staffIds: number[], now: number): string {
  const owner = customers[Math.floor(rand() * customers.length)] as Person;
  const maker = pick(MAKER);
  const item = `${maker ? `${maker} ` : ''}${pick(ADJECTIVE)} ${pick(MATERIAL)} ${pick(OBJECT)}`;
  const submitted = new Date(now - Math.floor(rand() * 5 * 365 * 86_400_000));
  const issued = new Date(Math.min(now, submitted.getTime() + Math.floor(rand() * 60 * 86_400_000)));
  const analyst = pick(staffIds);
  return [
    owner.id,
    csv(`${owner.first} ${owner.last}`),
    csv(owner.email),
    csv(item),
    'artwork-paintings',
    csv('Bench sample'),
    'completed',
    submitted.toISOString(),
    issued.toISOString(),
    analyst,
    'standard',
    reportCodeOf(i),
    'true',
    issued.toISOString(),
    analyst,
  ].join(',');
}

/**
 * The bench's staff (the first an admin) and customers with realistic names, accents included, and
 * e-mails; every account's password is `password`.
 */
export async function seedPeople(
  client: pg.Client,
  staffCount: number,
  customerCount: number,
  password = 'bench-password-1',
): Promise<{ staffIds: number[]; customers: Person[] }> {
  const hash = await hashPassword(password);
  const { rows: staffRows } = await client.query<{ id: number }>(
    `insert into users (email, password_hash, first_name, last_name, role)
     select 'staff' || g || '@lab.test', $1, 'Staff', 'Member ' || g, case g when 1 then 'admin' else 'staff' end
     from generate_series(1, ${staffCount}) g returning id`,
    [hash],
  );
  const staffIds = staffRows.map((r) => r.id);
  const people: Omit<Person, 'id'>[] = [];
  for (let i = 0; i < customerCount; i++) {
    const first = pick(FIRST);
    const last = pick(LAST);
    const local = `${first}.${last}`
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .replace(/[^A-Za-z.]/g, '')
      .toLowerCase();
    people.push({ first, last, email: `${local}${i}@${pick(DOMAINS)}` });
  }
  const { rows: customerRows } = await client.query<{ id: number }>(
    `insert into users (email, password_hash, first_name, last_name)
     select e, $1, f, l from unnest($2::text[], $3::text[], $4::text[]) as t(e, f, l) returning id`,
    [hash, people.map((p) => p.email), people.map((p) => p.first), people.map((p) => p.last)],
  );
  const customers = customerRows.map((r, i) => ({ id: r.id, ...(people[i] as Omit<Person, 'id'>) }));
  return { staffIds, customers };
}

/**
 * Runs `fill` with the table's secondary indexes dropped and builds them again after (as a restore
 * does: one sort each instead of millions of index inserts). Returns the seconds the builds took.
 */
export async function withIndexesAfter(client: pg.Client, table: string, fill: () => Promise<void>) {
  const { rows: indexDefs } = await client.query<{ indexname: string; indexdef: string }>(
    `select indexname, indexdef from pg_indexes where tablename = $1 and indexname <> $1 || '_pkey'`,
    [table],
  );
  for (const ix of indexDefs) await client.query(`drop index ${ix.indexname}`);
  await fill();
  const t = performance.now();
  for (const ix of indexDefs) await client.query(ix.indexdef);
  return (performance.now() - t) / 1000;
}
