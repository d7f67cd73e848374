import type { CSSProperties } from 'react';
import { HOSTED_LIGHT_PALETTE, themeVariableValues, type BrandingColorKey } from '../../../../shared/domain/branding';

export type PreviewPage = 'login' | 'registration';

/**
 * A hosted page drawn in the console with a theme's colours as the page would wear them (the same variables
 * and fallbacks the hosted pages use), so that a change shows as it is typed, before it is saved.
 */
export function ThemePreview({ page, colors, logo }: { page: PreviewPage; colors: Partial<Record<BrandingColorKey, string>>; logo?: string | undefined }) {
  const vars = { ...HOSTED_LIGHT_PALETTE, ...themeVariableValues(colors) };
  const v = (name: string) => vars[name]!;
  const field: CSSProperties = { display: 'flex', flexDirection: 'column', gap: 4 };
  const input: CSSProperties = { padding: '8px 10px', border: `1px solid ${v('--border')}`, borderRadius: 8, background: v('--input-bg'), color: v('--input-fg') };
  return (
    <figure className="theme-preview" data-testid={`theme-preview-${page}`}>
      <figcaption className="theme-preview-caption">{page === 'login' ? 'Sign-in page' : 'Sign-up page'}</figcaption>
      <div className="theme-preview-canvas" data-testid={`theme-preview-${page}-canvas`} style={{ background: v('--canvas') }}>
      <div
        className="theme-preview-card"
        data-testid={`theme-preview-${page}-card`}
        style={{ background: v('--surface'), border: `1px solid ${v('--border')}`, color: v('--fg') }}
        aria-hidden="true"
      >
        {logo && <img src={logo} alt="" className="theme-preview-logo" />}
        <p className="theme-preview-title">{page === 'login' ? 'Sign in' : 'Create an account'}</p>
        <div style={field}>
          <span>Email</span>
          <span style={input}>ada@example.com</span>
        </div>
        {page === 'registration' && (
          <div style={field}>
            <span>Name</span>
            <span style={input}>Ada Lovelace</span>
          </div>
        )}
        <div style={field}>
          <span>Password</span>
          <span style={input}>••••••••••</span>
        </div>
        {page === 'registration' && (
          <span className="theme-preview-message" style={{ background: v('--error-bg'), color: v('--error') }}>
            The password is too short.
          </span>
        )}
        <span
          className="theme-preview-button"
          data-testid={`theme-preview-${page}-button`}
          style={{ background: v('--accent'), color: v('--on-accent'), border: `1px solid ${v('--accent')}` }}
        >
          {page === 'login' ? 'Sign in' : 'Sign up'}
        </span>
        <span style={{ color: v('--accent'), textDecoration: 'underline' }}>{page === 'login' ? 'Create an account' : 'Sign in instead'}</span>
        <span style={{ color: v('--muted') }}>Secured by your project</span>
      </div>
      </div>
    </figure>
  );
}
