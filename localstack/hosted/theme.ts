import { HOSTED_LIGHT_PALETTE, themeVariableValues, type BrandingColorKey } from '../../shared/domain/branding';
import { esc } from './html';

/** What styles a project's hosted pages: the active branding theme's fields, as Ory names them. */
export type HostedTheme = Partial<Record<BrandingColorKey, string>> & { logo_url?: string; favicon_url?: string; name?: string };

const LIGHT = Object.entries(HOSTED_LIGHT_PALETTE).map(([k, v]) => `${k}:${v}`).join(';');
const DARK = `--canvas:#0f1115;--surface:#1a1d24;--subtle:#232732;--fg:#eceef2;--muted:#b4bac6;--accent:#a5a0ff;--accent-hover:#c4c1ff;--on-accent:#14122e;--border:#444b5a;--input-bg:#11131a;--input-fg:#eceef2;--input-disabled:#232732;--error:#ffb4ab;--error-bg:#3b1714;--success:#7fd99a;--disabled:#9aa1ad`;

/** The theme's own variables, or none when no theme is active. */
export function themeVariables(theme: HostedTheme | null): string {
  return Object.entries(themeVariableValues(theme))
    .map(([k, v]) => `${k}:${v}`)
    .join(';');
}

/**
 * The pages' stylesheet: the default palette (light, and dark where the browser prefers it) unless a theme is
 * active, whose colours then hold in both.
 */
export function stylesheet(theme: HostedTheme | null): string {
  const own = themeVariables(theme);
  const palette = own
    ? `:root{${LIGHT};${own};color-scheme:light}`
    : `:root{${LIGHT};color-scheme:light dark}@media (prefers-color-scheme: dark){:root{${DARK}}}`;
  return `${palette}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;background:var(--canvas);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;display:flex;align-items:flex-start;justify-content:center;padding:2rem 1rem}
main{width:100%;max-width:26rem;background:var(--surface);border:1px solid var(--border);border-radius:12px;padding:2rem 1.5rem}
.logo{display:block;max-height:48px;max-width:200px;margin:0 0 1rem}
h1{font-size:1.5rem;margin:0 0 1rem;line-height:1.25}
h2{font-size:1rem;margin:1.5rem 0 .5rem}
p{margin:.5rem 0}
a{color:var(--accent)}
a:hover{color:var(--accent-hover)}
form{display:flex;flex-direction:column;gap:.75rem;margin:1rem 0}
fieldset{border:0;padding:0;margin:0;display:flex;flex-direction:column;gap:.75rem}
legend{font-weight:600;margin-bottom:.25rem;padding:0}
.field{display:flex;flex-direction:column;gap:.25rem}
.field label{font-weight:500}
.check{display:flex;gap:.5rem;align-items:center}
input:not([type=checkbox]):not([type=radio]){font:inherit;padding:.6rem .75rem;border:1px solid var(--border);border-radius:8px;background:var(--input-bg);color:var(--input-fg)}
input:disabled{background:var(--input-disabled)}
input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
button{font:inherit;font-weight:600;padding:.65rem 1rem;border-radius:8px;border:1px solid var(--accent);background:var(--accent);color:var(--on-accent);cursor:pointer}
button:hover{background:var(--accent-hover);border-color:var(--accent-hover)}
button.secondary{background:transparent;color:var(--fg);border-color:var(--border)}
.messages{list-style:none;padding:0;margin:0 0 1rem;display:flex;flex-direction:column;gap:.5rem}
.message{padding:.6rem .75rem;border-radius:8px;background:var(--subtle);color:var(--fg)}
.message.error{background:var(--error-bg);color:var(--error)}
.field-message{margin:0;font-size:.875rem;color:var(--muted)}
.field-message.error{color:var(--error)}
.links{display:flex;flex-direction:column;gap:.5rem;margin-top:1rem}
.muted{color:var(--muted)}
ul.scopes{padding-left:0;list-style:none;display:flex;flex-direction:column;gap:.4rem}
.row{display:flex;gap:.75rem;flex-wrap:wrap}
.row button{flex:1}
pre.codes{white-space:pre-wrap;background:var(--subtle);padding:.75rem;border-radius:8px}
.langs{margin-top:1.5rem;font-size:.875rem;color:var(--muted)}
`;
}

/** `<link rel=icon>` and the logo of the theme, escaped. */
export const faviconLink = (theme: HostedTheme | null) =>
  theme?.favicon_url ? `<link rel="icon" href="${esc(theme.favicon_url)}">` : '';
