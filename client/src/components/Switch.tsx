import { Switch as Radix } from 'radix-ui';
import { useId } from 'react';

export interface SwitchProps {
  label: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  description?: string;
  disabled?: boolean;
  testId?: string;
}

/** An on/off switch (Radix, role="switch") with its label and an optional description. */
export function Switch({ label, checked, onCheckedChange, description, disabled, testId }: SwitchProps) {
  const id = useId();
  return (
    <div className="switch-field">
      <Radix.Root
        id={id}
        className="switch"
        checked={checked}
        onCheckedChange={onCheckedChange}
        disabled={disabled}
        aria-describedby={description ? `${id}-description` : undefined}
        data-testid={testId}
      >
        <Radix.Thumb className="switch-thumb" />
      </Radix.Root>
      <div>
        <label htmlFor={id} className="switch-label">
          {label}
        </label>
        {description && (
          <p id={`${id}-description`} className="field-hint">
            {description}
          </p>
        )}
      </div>
    </div>
  );
}
