// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { lazyContract } from './forms';
import { usePublicForm } from './public-form';

// The public forms' hook in a DOM without a browser: errors on blur and on submit with the
// schema's messages, an edit clears its field's error, the handler gets the values, dirty and reset.

afterEach(cleanup);

const schema = z.object({
  email: z.string().trim().email('Invalid email address'),
  name: z.string().trim().min(1, 'Name is required'),
});
type Values = { email: string; name: string };

function Form({ onSend, onInvalid }: { onSend: (v: Values) => void; onInvalid?: (e: object) => void }) {
  const form = usePublicForm<Values>({
    initialValues: { email: '', name: '' },
    contract: lazyContract(async () => schema),
  });
  const field = (name: keyof Values) => {
    const { error, ...props } = form.getInputProps(name);
    return (
      <div>
        <label>
          {name}
          <input name={name} {...props} />
        </label>
        {error ? <span role="alert">{error}</span> : null}
      </div>
    );
  };
  return (
    <form onSubmit={form.onSubmit(onSend, onInvalid)} noValidate>
      {field('email')}
      {field('name')}
      <output>{form.isDirty() ? 'dirty' : 'clean'}</output>
      <button type="button" onClick={form.reset}>
        Reset
      </button>
      <button type="submit">Send</button>
    </form>
  );
}

describe('usePublicForm', () => {
  it('checks a field when it loses the focus, and an edit clears its error', async () => {
    const user = userEvent.setup();
    render(<Form onSend={vi.fn()} />);
    await user.type(screen.getByLabelText('name'), 'Ada');
    await user.type(screen.getByLabelText('email'), 'nope');
    await user.click(screen.getByLabelText('name'));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Invalid email address');
    await user.type(screen.getByLabelText('email'), 'x');
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('checks every field on submit and sends nothing while one is wrong', async () => {
    const user = userEvent.setup();
    const onSend = vi.fn();
    const onInvalid = vi.fn();
    render(<Form onSend={onSend} onInvalid={onInvalid} />);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(2));
    expect(onInvalid).toHaveBeenCalledWith({ email: 'Invalid email address', name: 'Name is required' });
    expect(onSend).not.toHaveBeenCalled();
  });

  it('sends the values once they pass, and knows when it is dirty until reset', async () => {
    const user = userEvent.setup();
    const onSend = vi.fn();
    render(<Form onSend={onSend} />);
    expect(screen.getByText('clean')).toBeTruthy();
    await user.type(screen.getByLabelText('email'), 'ada@example.com');
    await user.type(screen.getByLabelText('name'), 'Ada');
    expect(screen.getByText('dirty')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onSend).toHaveBeenCalledWith({ email: 'ada@example.com', name: 'Ada' }));
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.getByText('clean')).toBeTruthy();
    expect(screen.getByLabelText('email')).toHaveProperty('value', '');
  });
});
