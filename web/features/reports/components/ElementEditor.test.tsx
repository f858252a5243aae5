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

  it('edits a row in place: its values fill the form, and Save keeps its place and key', async () => {
    const silver: DraftElement = { ...gold, key: 's', element: 'Silver', percentage: 30, purity: '' };
    const { onChange, user } = renderEditor([gold, silver]);
    await user.click(screen.getByRole('button', { name: 'Edit Gold' }));
    expect(screen.getByRole('heading', { name: 'Edit Gold' })).toBeTruthy();
    const name = screen.getByLabelText<HTMLInputElement>('Element Name');
    expect(name.value).toBe('Gold');
    expect(screen.getByLabelText<HTMLInputElement>('Purity').value).toBe('18k');
    // Its own name and its own share of the total do not count against it: 70 + 30 is 100.
    await user.clear(screen.getByLabelText('Percentage'));
    await user.type(screen.getByLabelText('Percentage'), '70');
    await user.clear(screen.getByLabelText('Purity'));
    await user.type(screen.getByLabelText('Purity'), '22k');
    await user.click(screen.getByRole('button', { name: 'Save Element' }));
    expect(onChange).toHaveBeenCalledTimes(1);
    const rows = onChange.mock.calls[0]?.[0] ?? [];
    expect(rows.map((r) => [r.key, r.element, r.percentage, r.purity])).toEqual([
      ['g', 'Gold', 70, '22k'],
      ['s', 'Silver', 30, ''],
    ]);
    expect(screen.getByRole('button', { name: 'Add Element' })).toBeTruthy();
  });

  it("an edit follows the same rules: another row's name, or a total over 100, is refused", async () => {
    const silver: DraftElement = { ...gold, key: 's', element: 'Silver', percentage: 30, purity: '' };
    const { onChange, user } = renderEditor([gold, silver]);
    await user.click(screen.getByRole('button', { name: 'Edit Silver' }));
    await user.clear(screen.getByLabelText('Element Name'));
    await user.type(screen.getByLabelText('Element Name'), 'GOLD');
    await user.click(screen.getByRole('button', { name: 'Save Element' }));
    expect(document.getElementById('t-element-error')?.textContent).toBe(duplicateElementMessage('GOLD'));
    await user.clear(screen.getByLabelText('Element Name'));
    await user.type(screen.getByLabelText('Element Name'), 'Silver');
    await user.clear(screen.getByLabelText('Percentage'));
    await user.type(screen.getByLabelText('Percentage'), '40.01');
    await user.click(screen.getByRole('button', { name: 'Save Element' }));
    expect(document.getElementById('t-percentage-error')?.textContent).toBe(TOTAL_OVER_100_MESSAGE);
    expect(onChange).not.toHaveBeenCalled();
    // Cancel leaves the row as it was and the form adds again.
    await user.click(screen.getByRole('button', { name: 'Cancel Editing' }));
    expect(screen.getByLabelText<HTMLInputElement>('Element Name').value).toBe('');
    expect(onChange).not.toHaveBeenCalled();
  });
});
