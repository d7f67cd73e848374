import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { SettingsForm } from './SettingsForm';
import { TextField } from './TextField';

const schema = z.object({ name: z.string().trim().min(1, 'Enter a name'), description: z.string() });
type Values = z.infer<typeof schema>;
const SAVED: Values = { name: 'Acme', description: 'The first one' };

/** A save the test settles itself, to see the form while it is on its way. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function renderForm(onSave: (changes: Partial<Values>, all: Values) => Promise<unknown>) {
  render(
    <SettingsForm schema={schema} values={SAVED} onSave={onSave} errorContext="Saving failed" submitLabel="Save" testId="settings">
      {(form) => (
        <>
          <TextField label="Name" {...form.register('name')} error={form.formState.errors.name?.message} />
          <TextField label="Description" {...form.register('description')} error={form.formState.errors.description?.message} />
        </>
      )}
    </SettingsForm>,
  );
  return { user: userEvent.setup(), name: screen.getByLabelText('Name'), save: screen.getByRole('button', { name: 'Save' }) };
}

/** Whether closing the tab now would make the browser ask first. */
function leavingAsks(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

const isDisabled = (element: HTMLElement) => (element as HTMLButtonElement).disabled;

afterEach(cleanup);

describe('SettingsForm', () => {
  it('sends only the fields that changed', async () => {
    const onSave = vi.fn(async (_changes: Partial<Values>, _all: Values) => undefined);
    const { user, name, save } = renderForm(onSave);
    expect(isDisabled(save)).toBe(true);
    await user.clear(name);
    await user.type(name, 'Acme Corp');
    await user.click(save);
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(onSave.mock.calls[0]?.[0]).toEqual({ name: 'Acme Corp' });
    // Saved: nothing left to save.
    await vi.waitFor(() => expect(isDisabled(screen.getByRole('button', { name: 'Save' }))).toBe(true));
  });

  it('refuses a second submit while the first is on its way', async () => {
    const pending = deferred<undefined>();
    const onSave = vi.fn(() => pending.promise);
    const { user, name, save } = renderForm(onSave);
    await user.type(name, ' Corp');
    // A double submit faster than React re-renders, then more tries while the save is on its way.
    const form = screen.getByTestId('settings');
    fireEvent.submit(form);
    fireEvent.submit(form);
    await vi.waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    await user.click(save);
    fireEvent.submit(form);
    expect(onSave).toHaveBeenCalledTimes(1);
    pending.resolve(undefined);
    await vi.waitFor(() => expect(isDisabled(save)).toBe(true));
  });

  it('puts the server’s field errors on their fields', async () => {
    const refused = { message: 'Bad request', data: { code: 'BAD_REQUEST', httpStatus: 400, zodError: { formErrors: [], fieldErrors: { name: ['That name is taken'] } } } };
    const { user, name, save } = renderForm(async () => Promise.reject(refused));
    await user.type(name, ' Corp');
    await user.click(save);
    expect((await screen.findByText('That name is taken')).getAttribute('role')).toBe('alert');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(name.getAttribute('aria-describedby')).toBe(screen.getByText('That name is taken').id);
  });

  it('asks before the page is left with unsaved changes, and no longer once they are discarded', async () => {
    const { user, name } = renderForm(async () => undefined);
    expect(leavingAsks()).toBe(false);
    await user.type(name, ' Corp');
    expect(leavingAsks()).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    expect((name as HTMLInputElement).value).toBe('Acme');
    expect(leavingAsks()).toBe(false);
  });
});
