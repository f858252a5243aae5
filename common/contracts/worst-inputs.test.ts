import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_JSON_BODY_BYTES } from '../domain/uploads';

// No input within the size the server accepts costs more than 50 ms of validation
// (docs/product/security.md): every string field of every request schema in this folder is fed
// the inputs that make backtracking patterns explode, as long as a whole JSON body may be. New
// schemas are picked up by name (…Request, …Body, …Fields, …Update, …Form, …Query, …Params, …Input).

const BUDGET_MS = 50;
// A quarter of the largest JSON body: a quadratic pattern already costs seconds at a tenth of it.
const LENGTH = Math.floor(MAX_JSON_BODY_BYTES / 4);

const shapes = [
  'a',
  '@',
  'a@',
  'a@a.',
  'a.',
  '.',
  '-',
  ' ',
  '\t',
  'a ',
  '1',
  '1.',
  '<a>',
  '<',
  '&#',
  'é',
  '\u{1F3FA}',
];
const worst = (shape: string, tail = '!') =>
  shape.repeat(Math.floor(LENGTH / shape.length)).slice(0, LENGTH) + tail;
const inputs = [
  ...shapes.flatMap((s) => [worst(s), worst(s, '@')]),
  `a@${worst('a')}`,
  `a@${worst('a.')}`,
  `${worst('a')}@a.a`,
  `a@a${worst('.a')}@`,
  `a@a${worst('.a')} x`,
  `http://${worst('a.')}`,
  `https://a.${worst('-')}`,
  `<p>${worst('<b>')}`,
];

const modules = import.meta.glob<Record<string, unknown>>('./*.ts', { eager: true });
const INPUT_NAME = /(Request|Body|Fields|Update|Form|Query|Params|Input)$/;

function requestSchemas(): [string, z.ZodObject][] {
  const found: [string, z.ZodObject][] = [];
  for (const [file, exports] of Object.entries(modules)) {
    if (file.endsWith('.test.ts')) continue;
    for (const [name, value] of Object.entries(exports))
      if (INPUT_NAME.test(name) && value instanceof z.ZodObject) found.push([`${file}:${name}`, value]);
  }
  return found;
}

/** CPU time of one call, in ms (robust against a machine busy with other work). */
function cpuMs(fn: () => unknown): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

describe('worst-case inputs for every validated field', () => {
  const schemas = requestSchemas();

  it('finds the request schemas', () => {
    expect(schemas.map(([n]) => n)).toEqual(
      expect.arrayContaining([
        './accounts.ts:loginRequest',
        './accounts.ts:registerRequest',
        './accounts.ts:profileUpdate',
        './contact.ts:contactRequest',
        './lab.ts:labSettingsRequest',
        './samples.ts:sampleSubmissionFields',
        './reports.ts:issueReportBody',
      ]),
    );
  });

  for (const [name, schema] of schemas) {
    it(`${name}: every field answers within ${BUDGET_MS} ms`, () => {
      const slow: string[] = [];
      for (const field of Object.keys(schema.shape)) {
        for (const input of inputs) {
          // As the field itself, and (for lists such as report elements) inside an array of objects.
          for (const value of [
            input,
            [Object.fromEntries(['element', 'notes', 'purity', 'quality', 'name'].map((k) => [k, input]))],
          ]) {
            // Best of two, so one garbage collection does not count as the pattern's cost.
            const ms = Math.min(
              cpuMs(() => schema.safeParse({ [field]: value })),
              cpuMs(() => schema.safeParse({ [field]: value })),
            );
            if (ms > BUDGET_MS)
              slow.push(
                `${field} ← ${JSON.stringify(input.slice(0, 12))}… (${input.length}): ${ms.toFixed(0)} ms`,
              );
          }
        }
      }
      expect(slow).toEqual([]);
    }, 120_000);
  }
});
