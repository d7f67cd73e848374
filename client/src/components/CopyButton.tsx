import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Tooltip } from './Tooltip';
import { Truncate } from './Truncate';

/** Puts text on the clipboard; falls back to a selection copy where the Clipboard API is refused. */
export async function copyText(value: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(value);
  } catch {
    const area = document.createElement('textarea');
    area.value = value;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    if (!ok) throw new Error('The browser refused to copy');
  }
}

export interface CopyButtonProps {
  value: string;
  /** What is copied, for the button's name: 'Copy project ID'. */
  label: string;
  testId?: string;
}

/** A small icon button that copies `value`; says "Copied" (visually and to screen readers) for a moment. */
export function CopyButton({ value, label, testId }: CopyButtonProps) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = window.setTimeout(() => setState('idle'), 2000);
    return () => window.clearTimeout(timer);
  }, [state]);
  const said = state === 'copied' ? 'Copied' : state === 'failed' ? 'Could not copy' : label;
  return (
    <>
      <Tooltip content={said}>
        <button
          type="button"
          className="btn btn-ghost btn-icon"
          aria-label={label}
          data-testid={testId}
          data-copied={state === 'copied' || undefined}
          onClick={() => {
            copyText(value).then(
              () => setState('copied'),
              () => setState('failed'),
            );
          }}
        >
          {state === 'copied' ? <Check size={14} aria-hidden="true" /> : <Copy size={14} aria-hidden="true" />}
        </button>
      </Tooltip>
      <span className="sr-only" role="status">
        {state === 'idle' ? '' : said}
      </span>
    </>
  );
}

/** A value shown as code, cut to fit, with its copy button. */
export function CopyValue({ value, label, testId }: { value: string; label: string; testId?: string }) {
  return (
    <span className="copy-value">
      <code className="copy-code">
        <Truncate text={value} {...(testId ? { testId: `${testId}-value` } : {})} />
      </code>
      <CopyButton value={value} label={label} {...(testId ? { testId: `${testId}-copy` } : {})} />
    </span>
  );
}
