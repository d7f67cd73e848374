import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ActionForm, useActionForm } from './ActionForm';
import { Button } from './Button';
import { TextField } from './TextField';

const schema = z.object({ email: z.string().trim().pipe(z.email('Enter an email address')), note: z.string() });
type Values = z.infer<typeof schema>;

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A dialog-like form whose submit button sits outside it, as in a dialog's footer. */
function Invite({ onSubmit, onDone, reportsError }: { onSubmit: (v: Values) => Promise<unknown>; onDone?: (r: unknown) => void; reportsError?: (e: unknown) => boolean }) {
  const action = useActionForm({ schema, defaultValues: { email: '', note: '' }, onSubmit, errorFallback: 'Could not send it.', ...(onDone ? { onDone } : {}), ...(reportsError ? { reportsError } : {}) });
  return (
    <>
      <ActionForm action={action} testId="invite">
        <TextField label="Email" error={action.form.formState.errors.email?.message} {...action.form.register('email')} />
        <TextField label="Note" error={action.form.formState.errors.note?.message} {...action.form.register('note')} />
      </ActionForm>
      <Button type="submit" form={action.id} busy={action.busy}>
        Send
      </Button>
    </>
  );
}

function renderInvite(props: Parameters<typeof Invite>[0]) {
  render(<Invite {...props} />);
  return { user: userEvent.setup(), email: screen.getByLabelText('Email') as HTMLInputElement, send: screen.getByRole('button', { name: 'Send' }) };
}

afterEach(cleanup);

describe('ActionForm', () => {
  it('checks the fields with the schema before anything is sent, and again as they are corrected', async () => {
    const onSubmit = vi.fn(async () => 'sent');
    const { user, email, send } = renderInvite({ onSubmit });
    await user.type(email, 'not an address');
    await user.click(send);
    expect(await screen.findByText('Enter an email address')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
    await user.clear(email);
    await user.type(email, 'ada@example.com');
    await vi.waitFor(() => expect(screen.queryByText('Enter an email address')).toBeNull());
  });

  it('sends the parsed values once, however often it is submitted, then starts over', async () => {
    const pending = deferred<string>();
    const onSubmit = vi.fn(() => pending.promise);
    const onDone = vi.fn();
    const { user, email, send } = renderInvite({ onSubmit, onDone });
    await user.type(email, '  ada@example.com ');
    await user.click(send);
    await user.click(send);
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]).toEqual([{ email: 'ada@example.com', note: '' }]);
    expect(screen.getByTestId('invite').getAttribute('aria-busy')).toBe('true');
    pending.resolve('sent');
    await vi.waitFor(() => expect(onDone).toHaveBeenCalledWith('sent', { email: 'ada@example.com', note: '' }));
    expect(email.value).toBe('');
  });

  it('puts a refusal that names a field on it, and any other once in the form', async () => {
    const byField = { message: 'Bad request', data: { code: 'BAD_REQUEST', httpStatus: 400, zodError: { formErrors: [], fieldErrors: { email: ['Already invited'] } } } };
    const onSubmit = vi.fn().mockRejectedValueOnce(byField).mockRejectedValueOnce({ message: 'The workspace does not exist.', data: { code: 'NOT_FOUND', httpStatus: 404 } });
    const { user, email, send } = renderInvite({ onSubmit });
    await user.type(email, 'ada@example.com');
    await user.click(send);
    const onField = await screen.findByText('Already invited');
    expect(email.getAttribute('aria-describedby')).toBe(onField.id);
    await user.click(send);
    expect((await screen.findByTestId('invite-error')).textContent).toBe('The workspace does not exist.');
    expect(screen.queryByText('Already invited')).toBeNull();
    expect(email.value).toBe('ada@example.com');
  });

  it('says nothing itself about a refusal the page reports', async () => {
    const refused = { message: 'quota', data: { code: 'FORBIDDEN', httpStatus: 403 } };
    const { user, email, send } = renderInvite({ onSubmit: () => Promise.reject(refused), reportsError: (e) => e === refused });
    await user.type(email, 'ada@example.com');
    await user.click(send);
    await vi.waitFor(() => expect(screen.getByTestId('invite').getAttribute('aria-busy')).toBeNull());
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
