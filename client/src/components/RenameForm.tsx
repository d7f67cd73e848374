import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { isNameChanged } from '../lib/name-field';
import { useUnsavedChangesWarning } from '../lib/use-unsaved-changes';
import { Button } from './Button';
import { TextField } from './TextField';

interface RenameFormProps {
  label: string;
  /** The name as saved upstream; the field starts from it and is never overwritten while the user types. */
  savedName: string;
  schema: z.ZodType<string, string>;
  saving: boolean;
  /** Why the last save failed; the typed value stays in the field. */
  saveError: string | undefined;
  onSave(name: string): void;
  /** Prefix of the field's and the button's test ids. */
  testId: string;
}

/** A name field with its Save button: validated with the shared schema, enabled only when changed. */
export function RenameForm({ label, savedName, schema, saving, saveError, onSave, testId }: RenameFormProps) {
  const [name, setName] = useState(savedName);
  const [invalid, setInvalid] = useState<string>();
  const changed = isNameChanged(name, savedName);
  useUnsavedChangesWarning(changed);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = schema.safeParse(name);
    if (!parsed.success) return setInvalid(parsed.error.issues[0]?.message);
    setInvalid(undefined);
    onSave(parsed.data);
  };

  return (
    <form onSubmit={onSubmit} noValidate className="form">
      <TextField label={label} name="name" value={name} onChange={(e) => setName(e.target.value)} error={invalid ?? saveError} autoComplete="off" data-testid={`${testId}-input`} />
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={saving} disabled={!changed} data-testid={`${testId}-submit`}>
          Save name
        </Button>
      </div>
    </form>
  );
}
