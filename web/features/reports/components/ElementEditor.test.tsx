// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { duplicateElementMessage, TOTAL_OVER_100_MESSAGE } from '../../../../common/contracts/reports';
import type { DraftElement } from '../report-draft';
import { ElementEditor } from './ElementEditor';

// The report editor's 'Add Analysis Element' form, in a DOM without a browser: what it hands to
// onChange and what it refuses, with the limits of docs/product/limits.md.

afterEach(cleanup);

const gold: DraftElement = {
  key: 'g',
  element: 'Gold',
  percentage: 60,
  purity: '18k',
  quality: '',
  notes: '',
};

function renderEditor(rows: DraftElement[]) {
  const onChange = vi.fn<(rows: DraftElement[]) => void>();
  render(
    <MantineProvider>
      <ElementEditor rows={rows} onChange={onChange} idPrefix="t" />
    </MantineProvider>,
  );
  return { onChange, user: userEvent.setup() };
}

async function addElement(user: ReturnType<typeof userEvent.setup>, name: string, percentage: string) {
  await user.type(screen.getByLabelText('Element Name'), name);
  await user.type(screen.getByLabelText('Percentage'), percentage);
  await user.click(screen.getByRole('button', { name: 'Add Element' }));
}

// Typing into Mantine's inputs takes seconds on a loaded machine: more than the unit project's 5 s default.
describe('ElementEditor', { timeout: 30_000 }, () => {
  it('adds an element with its name trimmed, and empties the form', async () => {
    const { onChange, user } = renderEditor([gold]);
    await addElement(user, '  Silver ', '25.5');
    expect(onChange).toHaveBeenCalledTimes(1);
    const rows = onChange.mock.calls[0]?.[0] ?? [];
    expect(rows.map((r) => [r.element, r.percentage])).toEqual([
      ['Gold', 60],
      ['Silver', 25.5],
    ]);
    expect(screen.getByLabelText<HTMLInputElement>('Element Name').value).toBe('');
  });

  it('refuses an element already in the report, whatever its case, and says so under the field', async () => {
    const { onChange, user } = renderEditor([gold]);
    await addElement(user, 'gold', '10');
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Element Name').getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById('t-element-error')?.textContent).toBe(duplicateElementMessage('gold'));
  });

  it('refuses a percentage that takes the total over 100', async () => {
    const { onChange, user } = renderEditor([gold]);
    await addElement(user, 'Silver', '40.01');
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Percentage').getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById('t-percentage-error')?.textContent).toBe(TOTAL_OVER_100_MESSAGE);
  });
});
