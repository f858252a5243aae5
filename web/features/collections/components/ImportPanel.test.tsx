// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Papa from 'papaparse';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type CollectionDetail,
  type ImportPreview,
  importPreview,
} from '../../../../common/contracts/collections';
import { ImportPanel, rowsToCsv } from './ImportPanel';

// The collection page's bulk intake in a DOM without a browser: the preview as the server answers it
// (each answer checked against the contract's schema, so it cannot drift from what the server sends),
// a row fixed in place, the CSV that "Check again" sends, and when Import is allowed. The server's
// own reading of a CSV is tested by server/modules/collections/*.api.test.ts on both databases.

type Sent = { url: string; csv: string; photoNames: string[] };

let sent: Sent[];
let answers: ImportPreview[];

beforeEach(() => {
  sent = [];
  answers = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const form = init.body as FormData;
    const file = form.get('file') as Blob;
    sent.push({ url, csv: await file.text(), photoNames: form.getAll('photoNames').map(String) });
    const answer = importPreview.parse(answers.shift());
    return new Response(JSON.stringify(answer), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// Only the id and name are read by the panel.
const collection = { id: 7, name: 'Estate of Ada Byron' } as CollectionDetail;

function renderPanel() {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <ImportPanel collection={collection} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return userEvent.setup();
}

const columns = ['itemName', 'category', 'photos'];
const row2 = { row: 2, fields: { itemName: 'Tea set', category: 'ceramics' }, photos: ['tea.jpg'] };

describe('rowsToCsv', () => {
  it('writes the columns as read, quotes what needs it, and joins photos with ";"', () => {
    const csv = rowsToCsv(
      ['itemName', '', 'description', 'photos'],
      [
        {
          row: 2,
          fields: { itemName: 'Clock, "Empire"', description: 'two\nlines' },
          photos: ['a.jpg', 'b.jpg'],
        },
      ],
    );
    const parsed = Papa.parse<string[]>(csv.trimEnd(), { newline: '\r\n' });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toEqual([
      ['itemName', 'description', 'photos'],
      ['Clock, "Empire"', 'two\nlines', 'a.jpg;b.jpg'],
    ]);
  });
});

describe('ImportPanel', { timeout: 30_000 }, () => {
  it('shows each problem under its field, blocks Import until the fixed rows are checked again, then allows it', async () => {
    const user = renderPanel();
    const preview = screen.getByRole('button', { name: 'Preview' });
    expect(preview).toHaveProperty('disabled', true);

    const fileInputs = document.querySelectorAll<HTMLInputElement>('input[type="file"]');
    const [csvInput, photosInput] = [...fileInputs];
    if (!csvInput || !photosInput) throw new Error('no file inputs');
    await user.upload(photosInput, new File(['x'], 'tea.jpg', { type: 'image/jpeg' }));
    await user.upload(
      csvInput,
      new File(['itemName,category,photos\r\nTea set,ceramix,tea.jpg\r\n'], 'estate.csv', {
        type: 'text/csv',
      }),
    );

    answers.push({
      columns,
      rows: [{ ...row2, fields: { ...row2.fields, category: 'ceramix' } }],
      errors: [
        { row: 2, field: 'category', path: 'rows.2.category', message: 'Choose a category from the list' },
      ],
      valid: false,
    });
    await user.click(screen.getByRole('button', { name: 'Preview' }));

    expect(await screen.findByText('1 problem to fix')).toBeTruthy();
    expect(sent[0]?.url).toBe('/api/collections/7/import?dryRun=1');
    expect(sent[0]?.photoNames).toEqual(['tea.jpg']);
    const card = screen.getByRole('region', { name: 'Row 2: Tea set' });
    const category = within(card).getByLabelText('category (row 2)');
    expect(category.getAttribute('aria-invalid')).toBe('true');
    expect(within(card).getByText('Choose a category from the list')).toBeTruthy();
    const importButton = screen.getByRole('button', { name: 'Import 1 item' });
    expect(importButton).toHaveProperty('disabled', true);

    await user.clear(category);
    await user.type(category, 'ceramics');
    expect(screen.getByText('Rows changed: check them again before importing')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Import 1 item' })).toHaveProperty('disabled', true);

    answers.push({ columns, rows: [row2], errors: [], valid: true });
    await user.click(screen.getByRole('button', { name: 'Check again' }));
    expect(await screen.findByText('1 item ready to import')).toBeTruthy();
    expect(Papa.parse<string[]>(sent[1]?.csv.trimEnd() ?? '', { newline: '\r\n' }).data).toEqual([
      columns,
      ['Tea set', 'ceramics', 'tea.jpg'],
    ]);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Import 1 item' })).toHaveProperty('disabled', false),
    );
  });

  it('says what is wrong without asking the server when the CSV is too large', async () => {
    const user = renderPanel();
    const [csvInput] = [...document.querySelectorAll<HTMLInputElement>('input[type="file"]')];
    if (!csvInput) throw new Error('no file input');
    await user.upload(csvInput, new File(['a'.repeat(2 * 1024 * 1024 + 1)], 'big.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The CSV file must be 2 MB or smaller');
    expect(sent).toEqual([]);
  });
});
