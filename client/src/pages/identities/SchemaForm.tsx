import { coerce, schemaFields, valueAt, withValue, type SchemaField } from '../../../../shared/domain/schema-form';
import { Switch } from '../../components/Switch';
import { Select, TextField } from '../../components/TextField';

const INPUT_TYPES: Partial<Record<SchemaField['kind'], string>> = {
  email: 'email',
  url: 'url',
  tel: 'tel',
  date: 'date',
  datetime: 'datetime-local',
  password: 'password',
  number: 'number',
  integer: 'number',
};

export interface SchemaFormProps {
  /** The identity schema whose traits the form edits. */
  identitySchema: unknown;
  traits: Record<string, unknown>;
  onChange: (traits: Record<string, unknown>) => void;
  /** Failures by dotted path, as validateTraits answers them. */
  errors: Record<string, string>;
  disabled?: boolean;
  testId?: string;
}

/**
 * The form an identity schema produces: one field per trait (text of its format, number, switch, select of
 * its enum, a list of values one per line, and a fieldset per nested object), labelled by the schema's
 * titles. Traits the schema does not describe are kept as they are.
 */
export function SchemaForm({ identitySchema, traits, onChange, errors, disabled, testId = 'schema-form' }: SchemaFormProps) {
  const fields = schemaFields(identitySchema);
  if (fields.length === 0) return <p className="muted">This schema describes no traits.</p>;
  return (
    <div className="schema-form" data-testid={testId}>
      {errors[''] && (
        <p className="field-error" role="alert">
          {errors['']}
        </p>
      )}
      {fields.map((field) => (
        <FieldInput key={field.path} field={field} traits={traits} onChange={onChange} errors={errors} disabled={disabled ?? false} />
      ))}
    </div>
  );
}

function FieldInput({ field, traits, onChange, errors, disabled }: { field: SchemaField; traits: Record<string, unknown>; onChange: (t: Record<string, unknown>) => void; errors: Record<string, string>; disabled: boolean }) {
  const value = valueAt(traits, field.path);
  const error = errors[field.path];
  const label = field.required ? `${field.label} (required)` : field.label;
  const hint = field.description ?? (field.identifier ? 'Used to sign in.' : undefined);
  const testId = `trait-${field.path}`;
  const set = (next: unknown) => onChange(withValue(traits, field.path, next));

  switch (field.kind) {
    case 'object':
      return (
        <fieldset className="schema-fieldset" data-testid={testId}>
          <legend>{label}</legend>
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
          {field.fields.map((child) => (
            <FieldInput key={child.path} field={child} traits={traits} onChange={onChange} errors={errors} disabled={disabled} />
          ))}
        </fieldset>
      );
    case 'boolean':
      return (
        <div className={error ? 'field field-invalid' : 'field'}>
          <Switch label={field.label} checked={value === true} onCheckedChange={(checked) => set(checked)} disabled={disabled} testId={testId} {...(hint ? { description: hint } : {})} />
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
        </div>
      );
    case 'select':
      return (
        <Select
          label={label}
          options={[{ value: '', label: 'Not set' }, ...field.options.map((o) => ({ value: o, label: o }))]}
          value={typeof value === 'string' || typeof value === 'number' ? String(value) : ''}
          onChange={(e) => set(e.target.value)}
          disabled={disabled}
          data-testid={testId}
          {...(hint ? { hint } : {})}
          {...(error ? { error } : {})}
        />
      );
    case 'list': {
      const items = Array.isArray(value) ? value.map(String) : [];
      return (
        <div className={error ? 'field field-invalid' : 'field'}>
          <label className="field-label" htmlFor={testId}>
            {label}
          </label>
          <textarea
            id={testId}
            className="input"
            rows={3}
            value={items.join('\n')}
            onChange={(e) => set(e.target.value.split('\n').filter((line, i, all) => line !== '' || i < all.length - 1))}
            disabled={disabled}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${testId}-error` : `${testId}-hint`}
            data-testid={testId}
          />
          {error ? (
            <p id={`${testId}-error`} className="field-error" role="alert">
              {error}
            </p>
          ) : (
            <p id={`${testId}-hint`} className="field-hint">
              One value per line.
            </p>
          )}
        </div>
      );
    }
    default:
      return (
        <TextField
          label={label}
          type={INPUT_TYPES[field.kind] ?? 'text'}
          value={value === undefined || value === null ? '' : String(value)}
          onChange={(e) => set(coerce(field, e.target.value))}
          required={field.required}
          disabled={disabled}
          autoComplete="off"
          data-testid={testId}
          {...(field.minLength !== undefined ? { minLength: field.minLength } : {})}
          {...(field.maxLength !== undefined ? { maxLength: field.maxLength } : {})}
          {...(field.minimum !== undefined ? { min: field.minimum } : {})}
          {...(field.maximum !== undefined ? { max: field.maximum } : {})}
          {...(field.kind === 'integer' ? { step: 1 } : {})}
          {...(hint ? { hint } : {})}
          {...(error ? { error } : {})}
        />
      );
  }
}
