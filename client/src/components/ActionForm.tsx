import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useForm, type DefaultValues, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { errorText, fieldErrors } from '../lib/errors';
import { Button } from './Button';

export interface ActionFormOptions<I extends FieldValues, T, R> {
  /** The zod schema of the form's fields, usually picked from the procedure's input schema. */
  schema: z.ZodType<T, I>;
  defaultValues: DefaultValues<I>;
  /** Runs the action with the parsed values; rejects with the BFF's error. */
  onSubmit: (values: T) => Promise<R>;
  /** After success: the form is back at its defaults. */
  onDone?: (result: R, values: T) => void;
  /** Said when the action fails for a reason that belongs to no field: '<fallback>' when the error has no text. */
  errorFallback: string;
  /** True for a failure the caller reports itself (a quota refusal with its upgrade prompt): nothing shown in the form. */
  reportsError?: (error: unknown) => boolean;
}

export interface ActionFormState<I extends FieldValues, T> {
  /** The form element's id: a submit button outside it (a dialog's footer) names it with `form={id}`. */
  id: string;
  form: UseFormReturn<I, unknown, T>;
  /** The action is on its way: the submit button shows it, a second submit sends nothing. */
  busy: boolean;
  submit: (event: FormEvent<HTMLFormElement>) => void;
  /** Back to the defaults, no errors (a dialog that closes). */
  reset: () => void;
}

/**
 * The one form of the console for creating something or taking an action (react-hook-form with zod), as
 * SettingsForm is for settings: fields checked with the procedure's own rules on submit and again as they
 * are corrected; one submit at a time; a server refusal that names a field lands on it, any other is said
 * once, in the form; success resets the form.
 */
export function useActionForm<I extends FieldValues, T, R>(options: ActionFormOptions<I, T, R>): ActionFormState<I, T> {
  const id = useId();
  const form = useForm<I, unknown, T>({
    resolver: zodResolver(options.schema as never) as never,
    defaultValues: options.defaultValues,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const [busy, setBusy] = useState(false);
  const inFlight = useRef(false);

  const run = async (values: T) => {
    setBusy(true);
    form.clearErrors();
    try {
      const result = await options.onSubmit(values);
      form.reset(options.defaultValues);
      options.onDone?.(result, values);
    } catch (error) {
      if (options.reportsError?.(error)) return;
      const byField = fieldErrors(error);
      const known = Object.keys(byField).filter((name) => name in (values as object));
      for (const name of known) form.setError(name as Path<I>, { type: 'server', message: byField[name] });
      if (known.length === 0) form.setError('root.server', { type: 'server', message: errorText(error) ?? options.errorFallback });
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Synchronous, so a double click cannot slip a second request in before React re-renders.
    if (inFlight.current) return;
    inFlight.current = true;
    void form.handleSubmit(run, () => {
      inFlight.current = false;
    })(event);
  };

  return {
    id,
    form,
    busy,
    submit,
    reset: () => {
      form.reset(options.defaultValues);
      form.clearErrors();
    },
  };
}

export interface ActionFormProps<I extends FieldValues, T> {
  action: ActionFormState<I, T>;
  /** Prefix of the test ids: the form itself, `${testId}-error`, and `${testId}-submit` when the form has its own button. */
  testId: string;
  /** A submit button of its own, at the end of the form; leave it out when the dialog's footer has one (`form={action.id}`). */
  submitLabel?: string;
  className?: string;
  children: ReactNode;
}

/** The form element of `useActionForm`: its fields, the refusal that belongs to no field, and optionally its submit button. */
export function ActionForm<I extends FieldValues, T>({ action, testId, submitLabel, className = 'inline-form', children }: ActionFormProps<I, T>) {
  const rootError = action.form.formState.errors.root?.server?.message;
  return (
    <form id={action.id} className={className} onSubmit={action.submit} noValidate aria-busy={action.busy || undefined} data-testid={testId}>
      {children}
      {rootError && (
        <p className="form-error" role="alert" data-testid={`${testId}-error`}>
          {rootError}
        </p>
      )}
      {submitLabel && (
        <div className="form-actions form-actions-start">
          <Button type="submit" variant="primary" busy={action.busy} data-testid={`${testId}-submit`}>
            {submitLabel}
          </Button>
        </div>
      )}
    </form>
  );
}
