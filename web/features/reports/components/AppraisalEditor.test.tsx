// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APPRAISAL_MESSAGES } from '../../../../common/contracts/appraisal';
import { type ReportDraft, draftFromSample } from '../report-draft';
import { AppraisalEditor } from './AppraisalEditor';
import { pasteInto, provideDocumentFonts } from '../../../../tests/support/dom';

// The report editor's comparable sales in a DOM without a browser: a sale is checked with the
// server's schema before it joins the table, prices are shown in their own currency, the table sorts
// by date and price, and rows are edited and removed in place. The draft the editor holds is what
// the report call sends (draftToBody), so the test reads it after each step.

afterEach(cleanup);

beforeAll(provideDocumentFonts);

function renderEditor() {
  const seen: { draft: ReportDraft } = {
    draft: draftFromSample(
      { report: null, files: [], reportElements: [] },
      { limitingConditionsTemplate: '', currency: 'USD' },
    ),
  };
  function Harness() {
    const [draft, setDraft] = useState(seen.draft);
    seen.draft = draft;
    return (
      <AppraisalEditor
        draft={draft}
        errors={{}}
        photos={[]}
        onChange={(patch) => setDraft((d) => ({ ...d, ...patch }))}
      />
    );
  }
  render(
    <MantineProvider>
      <Harness />
    </MantineProvider>,
  );
  return { seen, user: userEvent.setup() };
}

type Sale = { description: string; source: string; saleDate: string; price: string };

type User = ReturnType<typeof userEvent.setup>;

async function addSale(user: User, sale: Sale) {
  await user.click(screen.getByRole('button', { name: 'Add comparable sale' }));
  const form = screen.getByRole('group', { name: /^Comparable sale \d+$/ });
  await pasteInto(user, within(form).getByLabelText('Description'), sale.description);
  await pasteInto(user, within(form).getByLabelText(/^Source/), sale.source);
  fireEvent.change(within(form).getByLabelText('Sale date'), { target: { value: sale.saleDate } });
  await user.type(within(form).getByLabelText(/^Price/), sale.price);
  await user.click(within(form).getByRole('button', { name: 'Save comparable' }));
}

const bodyRows = () =>
  within(screen.getByRole('table', { name: 'Comparable sales' }))
    .getAllByRole('row')
    .slice(1);
const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent);

describe('AppraisalEditor: comparable sales', { timeout: 30_000 }, () => {
  it('refuses an incomplete or future sale with the schema’s messages and adds nothing', async () => {
    const { seen, user } = renderEditor();
    await user.click(screen.getByRole('button', { name: 'Add comparable sale' }));
    const form = screen.getByRole('group', { name: 'Comparable sale 1' });
    fireEvent.change(within(form).getByLabelText('Sale date'), { target: { value: '2999-01-01' } });
    await user.click(within(form).getByRole('button', { name: 'Save comparable' }));
    expect(within(form).getByText(APPRAISAL_MESSAGES.comparableDescription)).toBeTruthy();
    expect(within(form).getByText(APPRAISAL_MESSAGES.saleFuture)).toBeTruthy();
    expect(seen.draft.comparables).toEqual([]);
    expect(screen.getByText('No comparable sales yet.')).toBeTruthy();
  });

  it('adds sales, shows each price in its currency, sorts by price and date, edits and removes in place', async () => {
    const { seen, user } = renderEditor();
    await addSale(user, {
      description: 'Meissen figurine, 1750',
      source: 'Christie’s',
      saleDate: '2025-03-14',
      price: '12500',
    });
    await addSale(user, {
      description: 'Meissen cup',
      source: 'Bonhams',
      saleDate: '2026-01-20',
      price: '800.5',
    });
    expect(screen.getByText('2 of 12')).toBeTruthy();
    expect(bodyRows().map((r) => cellsOf(r).slice(1, 4))).toEqual([
      ['Meissen figurine, 1750', 'Christie’s', 'US$12,500.00'],
      ['Meissen cup', 'Bonhams', 'US$800.50'],
    ]);

    await user.click(screen.getByRole('button', { name: /^Price/ }));
    expect(screen.getByRole('columnheader', { name: /^Price/ }).getAttribute('aria-sort')).toBe('ascending');
    expect(seen.draft.comparables.map((c) => c.description)).toEqual([
      'Meissen cup',
      'Meissen figurine, 1750',
    ]);
    await user.click(screen.getByRole('button', { name: /^Sale date/ }));
    await user.click(screen.getByRole('button', { name: /^Sale date/ }));
    expect(screen.getByRole('columnheader', { name: /^Sale date/ }).getAttribute('aria-sort')).toBe(
      'descending',
    );
    expect(seen.draft.comparables.map((c) => c.saleDate)).toEqual(['2026-01-20', '2025-03-14']);

    await user.click(screen.getByRole('button', { name: 'Edit comparable sale 2' }));
    const form = screen.getByRole('group', { name: 'Comparable sale 2' });
    const description = within(form).getByLabelText('Description');
    expect((description as HTMLInputElement).value).toBe('Meissen figurine, 1750');
    await user.clear(description);
    await pasteInto(user, description, 'Meissen figurine of a harlequin, 1750');
    await user.click(within(form).getByRole('button', { name: 'Save comparable' }));
    expect(seen.draft.comparables.map((c) => c.description)).toEqual([
      'Meissen cup',
      'Meissen figurine of a harlequin, 1750',
    ]);
    expect(screen.getByRole('status').textContent).toBe('Comparable sale 2 saved.');

    await user.click(screen.getByRole('button', { name: 'Remove comparable sale 1' }));
    expect(seen.draft.comparables.map((c) => c.description)).toEqual([
      'Meissen figurine of a harlequin, 1750',
    ]);
    expect(bodyRows()).toHaveLength(1);
  });
});
