import { zodResolver } from '@hookform/resolvers/zod';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useForm, type DefaultValues, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import toast from 'react-hot-toast';
import type { z } from 'zod';
import { changedFields } from '../../../shared/domain/changed-fields';
import { fieldErrors, isConflict } from '../lib/errors';
import { useUnsavedChangesGuard } from '../lib/navigation-guard';
import { showError } from '../shell/error-toast';
import { Button } from './Button';
import { ConfirmDialog } from './Dialog';

/** A question asked before a risky change is saved. */
export interface SaveConfirmation {
  title: string;
  message: ReactNode;
  confirmLabel: string;
}

export interface SettingsFormProps<T extends FieldValues, R = unknown> {
  /** The same zod schema the procedure validates with (input and output of the same shape). */
  schema: z.ZodType<T, T>;
  /** The values as saved upstream. The form starts from them; a later change of this prop never overwrites typing. */
  values: T;
  /**
   * Saves. Receives only the fields that changed (every field for a create form). Resolves with what
   * `onSaved` needs; rejects with the BFF's error.
   */
  onSave: (changes: Partial<T>, all: T) => Promise<R>;
  /** After a successful save, once the form holds no changes (so a navigation here is not held). */
  onSaved?: (result: R, changes: Partial<T>) => void;
  /** A question to ask before saving these changes, or undefined to save straight away. */
  confirm?: (changes: Partial<T>, saved: T) => SaveConfirmation | undefined;
  /** Loads the values again after a stale-revision conflict; answers the latest saved values. */
  reload?: () => Promise<T | undefined>;
  /** Said in plain words when the save hit a stale revision. */
  conflictMessage?: string;
  /** The toast's context when a save fails: '<context>: <error>'. */
  errorContext: string;
  submitLabel: string;
  /** True for a failure the page reports itself (a quota refusal with its upgrade prompt): no toast, no form error. */
  reportsError?: (error: unknown) => boolean;
  /** False while the values cannot be saved for a reason the form already shows (a preview that fails): Save is disabled. */
  canSave?: (values: T) => boolean;
  /** 'create' sends every field and has no Discard button. */
  kind?: 'edit' | 'create';
  /** Prefix of the form's test ids: `${testId}-submit`, `${testId}-discard`, `${testId}-error`. */
  testId: string;
  children: (form: UseFormReturn<T>) => ReactNode;
}

export const DEFAULT_CONFLICT_MESSAGE =
  'This was changed somewhere else while you were editing. The latest version is loaded now: check your changes and save again.';

/** The values as the schema reads them (trimmed, defaulted), or undefined while they are invalid. */
function parsed<T extends FieldValues>(schema: z.ZodType<T, T>, values: T): T | undefined {
  const result = schema.safeParse(values);
  return result.success ? result.data : undefined;
}

/**
 * The one edit form of the console (react-hook-form with the procedures' zod schemas):
 * - it tracks changes against the saved values; Save is enabled only with changes, Discard restores;
 * - leaving with changes asks first (in-app links, the browser's back button, closing the tab);
 * - the save sends only the changed fields, so fields this form does not show survive;
 * - a second submit while one is on its way sends nothing;
 * - server field errors land on their fields; a stale-revision conflict reloads and says so;
 * - risky changes are confirmed first.
 */
export function SettingsForm<T extends FieldValues, R = unknown>(props: SettingsFormProps<T, R>) {
  const { schema, values, kind = 'edit', testId } = props;
  const form = useForm<T, unknown, T>({
    resolver: zodResolver(schema as never) as never,
    defaultValues: values as DefaultValues<T>,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const [saved, setSaved] = useState<T>(values);
  const [saving, setSaving] = useState(false);
  const [asking, setAsking] = useState<{ confirmation: SaveConfirmation; changes: Partial<T>; all: T }>();
  const inFlight = useRef(false);

  const current = form.watch();
  const clean = parsed(schema, current);
  const changes = clean ? changedFields(saved, clean) : undefined;
  // Read on every render: react-hook-form only tracks the formState fields a render has read.
  const { isDirty } = form.formState;
  const dirty = kind === 'create' || !changes ? isDirty : Object.keys(changes).length > 0;
  const release = useUnsavedChangesGuard(dirty);

  const save = async (toSave: Partial<T>, all: T) => {
    setSaving(true);
    form.clearErrors();
    try {
      const result = await props.onSave(toSave, all);
      const next = { ...saved, ...all };
      release();
      setSaved(next);
      form.reset(next);
      props.onSaved?.(result, toSave);
    } catch (error) {
      if (isConflict(error) && props.reload) {
        const latest = await props.reload().catch(() => undefined);
        if (latest) {
          setSaved(latest);
          form.reset(latest, { keepDirtyValues: true });
        }
        const message = props.conflictMessage ?? DEFAULT_CONFLICT_MESSAGE;
        form.setError('root.server', { type: 'conflict', message });
        toast.error(message, { id: message });
      } else if (props.reportsError?.(error)) {
        // The page says it once, where it belongs.
      } else {
        const byField = fieldErrors(error);
        const known = Object.keys(byField).filter((name) => name in all);
        for (const name of known) form.setError(name as Path<T>, { type: 'server', message: byField[name] });
        if (known.length === 0) form.setError('root.server', { type: 'server', message: showError(error, props.errorContext) });
        else showError(error, props.errorContext);
      }
    } finally {
      inFlight.current = false;
      setSaving(false);
    }
  };

  const onValid = async (all: T) => {
    if (props.canSave?.(all) === false) {
      inFlight.current = false;
      return;
    }
    const toSave = kind === 'create' ? all : changedFields(saved, all);
    if (Object.keys(toSave).length === 0) {
      form.reset(saved);
      inFlight.current = false;
      return;
    }
    const confirmation = props.confirm?.(toSave, saved);
    if (confirmation) {
      inFlight.current = false;
      setAsking({ confirmation, changes: toSave, all });
      return;
    }
    await save(toSave, all);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Synchronous, so a double click cannot slip a second request in before React re-renders.
    if (inFlight.current) return;
    inFlight.current = true;
    void form.handleSubmit(onValid, () => {
      inFlight.current = false;
    })(event);
  };

  const rootError = form.formState.errors.root?.server?.message;

  return (
    <>
    <form onSubmit={onSubmit} noValidate className="form" data-testid={testId} aria-busy={saving || undefined}>
      {props.children(form)}
      {rootError && (
        <p className="form-error" role="alert" data-testid={`${testId}-error`}>
          {rootError}
        </p>
      )}
      <div className="form-actions form-actions-start">
        <Button type="submit" variant="primary" busy={saving} disabled={(kind === 'edit' && !dirty) || props.canSave?.(current) === false} data-testid={`${testId}-submit`}>
          {props.submitLabel}
        </Button>
        {kind === 'edit' && (
          <Button
            onClick={() => {
              form.reset(saved);
              form.clearErrors();
            }}
            disabled={!dirty || saving}
            data-testid={`${testId}-discard`}
          >
            Discard
          </Button>
        )}
      </div>
    </form>
      <ConfirmDialog
        open={asking !== undefined}
        title={asking?.confirmation.title ?? ''}
        message={asking?.confirmation.message}
        confirmLabel={asking?.confirmation.confirmLabel ?? 'Save'}
        variant="primary"
        onConfirm={() => {
          const held = asking;
          setAsking(undefined);
          if (!held || inFlight.current) return;
          inFlight.current = true;
          void save(held.changes, held.all);
        }}
        onClose={() => setAsking(undefined)}
        testId={`${testId}-confirm`}
      />
    </>
  );
}
