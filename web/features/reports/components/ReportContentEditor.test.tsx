// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ReportDraft, draftFromSample, draftToBody } from '../report-draft';
import { ReportContentEditor } from './ReportContentEditor';
import { pasteInto, provideDocumentFonts } from '../../../../tests/support/dom';

// The report editor's content in a DOM without a browser: what the expert types becomes the draft the
// report call sends, the value is previewed as the report will state it, the currency decides the
// decimals, the appraisal sections appear only once a value is started, and the schema's problems
// are shown under their fields.

afterEach(cleanup);

beforeAll(provideDocumentFonts);

function renderEditor(errors: Record<string, string> = {}) {
  const seen: { draft: ReportDraft } = {
    draft: draftFromSample(
      { report: null, files: [], reportElements: [], dimensions: ' 12 x 8 cm ', materials: 'Porcelain' },
      { limitingConditionsTemplate: 'The item was seen once.', currency: 'USD' },
    ),
  };
  function Harness() {
    const [draft, setDraft] = useState(seen.draft);
    seen.draft = draft;
    return (
      <ReportContentEditor
        draft={draft}
        errors={errors}
        files={[]}
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

const put = (user: ReturnType<typeof userEvent.setup>, label: RegExp | string, text: string) =>
  pasteInto(user, screen.getByLabelText(label), text);

describe('ReportContentEditor', { timeout: 30_000 }, () => {
  it('starts from the submission, previews the value as the report states it, and shows the appraisal once a value is started', async () => {
    const { seen, user } = renderEditor();
    expect(screen.getByLabelText<HTMLInputElement>('Dimensions').value).toBe('12 x 8 cm');
    expect(screen.getByLabelText<HTMLInputElement>('Materials').value).toBe('Porcelain');
    expect(screen.queryByRole('heading', { name: 'Comparable sales' })).toBeNull();

    await put(user, /^Low value/, '12000');
    await put(user, /^High value/, '18000.5');
    expect(screen.getByTestId('valuation-preview').textContent).toBe('US$12,000.00 – US$18,000.50');
    expect(screen.getByRole('heading', { name: 'Comparable sales' })).toBeTruthy();
    expect(screen.getByText(/Up to 2 decimals/)).toBeTruthy();
    expect(seen.draft.valuation).toMatchObject({ low: '12000', high: '18000.5', currency: 'USD' });
    expect(seen.draft.assignment.limitingConditions).toBe('The item was seen once.');

    await user.click(screen.getByRole('radio', { name: 'Authentic' }));
    expect(seen.draft.verdict).toBe('authentic');
    const body = draftToBody(seen.draft);
    expect(body).toMatchObject({
      identification: { dimensions: '12 x 8 cm', materials: 'Porcelain' },
      authenticity: { verdict: 'authentic' },
    });
  });

  it('previews nothing while an amount has too many decimals for its currency, and shows problems under their fields', async () => {
    const { seen, user } = renderEditor({ 'valuation.effectiveDate': 'Please give the effective date' });
    await put(user, /^High value/, '18000.555');
    expect(screen.queryByTestId('valuation-preview')).toBeNull();
    // Not an amount in US$: nothing is previewed, and the draft keeps what was typed for the server to refuse.
    expect(seen.draft.valuation.high).toBe('18000.555');
    await user.clear(screen.getByLabelText(/^High value/));
    await put(user, /^High value/, '18000.55');
    expect(screen.getByTestId('valuation-preview').textContent).toBe('US$18,000.55');
    const date = screen.getByLabelText('Effective date');
    expect(date.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Please give the effective date')).toBeTruthy();
  });
});
