import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Link } from 'wouter';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  busy?: boolean;
}

export function Button({ variant = 'secondary', busy = false, className, disabled, children, type, ...rest }: ButtonProps) {
  return (
    <button
      {...rest}
      type={type ?? 'button'}
      className={['btn', `btn-${variant}`, className].filter(Boolean).join(' ')}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
    >
      {children}
    </button>
  );
}

export interface LinkButtonProps {
  href: string;
  variant?: ButtonVariant;
  children: ReactNode;
  'data-testid'?: string;
}

/** A link styled as a button, for navigation calls to action. */
export function LinkButton({ href, variant = 'primary', children, ...rest }: LinkButtonProps) {
  return (
    <Link href={href} className={`btn btn-${variant}`} data-testid={rest['data-testid']}>
      {children}
    </Link>
  );
}
