import { useEffect, useMemo, useState, type ChangeEvent } from 'react';
import toast from 'react-hot-toast';
import { useSearch } from 'wouter';
import {
  BRANDING_COLOR_GROUPS,
  BRANDING_COLOR_KEYS,
  BRANDING_IMAGE_MAX_BYTES,
  BRANDING_IMAGE_TYPES,
  brandingImageProblem,
  contrastWarnings,
  HOSTED_LIGHT_PALETTE,
  HOSTED_THEME_VARIABLES,
  type BrandingColorKey,
} from '../../../../shared/domain/branding';
import { brandingImageSchema, themeColors, type BrandingTheme, type BrandingUpdateThemeInput } from '../../../../shared/schemas/branding';
import { Button, LinkButton } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { QueryView } from '../../components/QueryView';
import { TextField } from '../../components/TextField';
import { errorText } from '../../lib/errors';
import { useUnsavedChangesGuard } from '../../lib/navigation-guard';
import { ROUTES } from '../../routes';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { ThemePreview } from './ThemePreview';

type Colors = Partial<Record<BrandingColorKey, string>>;
interface Image {
  url: string;
  type?: string | undefined;
}
interface Draft {
  name: string;
  colors: Colors;
  logo?: Image | undefined;
  favicon?: Image | undefined;
}

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const LABELS: Partial<Record<string, string>> = { primary_color: 'Primary', secondary_color: 'Secondary' };
/** `accent_default_color` → "Accent default". */
const colorLabel = (key: string) => LABELS[key] ?? (key.replace(/_color$/, '').replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()));

/** What the hosted pages show for a key the theme leaves unset: the default palette's colour of its variable. */
function defaultOf(key: BrandingColorKey): string {
  const variable = HOSTED_THEME_VARIABLES.find(([, keys]) => keys.includes(key))?.[0];
  return (variable && HOSTED_LIGHT_PALETTE[variable]) || '#808080';
}

/** A colour the native picker can show (#rrggbb). */
function pickerValue(hex: string): string {
  const h = hex.slice(1);
  if (h.length === 3) return `#${[...h].map((c) => c + c).join('')}`.toLowerCase();
  return `#${h.slice(0, 6)}`.toLowerCase();
}

const draftOf = (theme: BrandingTheme): Draft => ({
  name: theme.name,
  colors: themeColors(theme),
  logo: theme.logo_url ? { url: theme.logo_url, type: theme.logo_type } : undefined,
  favicon: theme.favicon_url ? { url: theme.favicon_url, type: theme.favicon_type } : undefined,
});

/** The fields of an edit: only what differs from the saved theme (a colour removed is cleared with null). */
function changesOf(saved: Draft, draft: Draft): Omit<BrandingUpdateThemeInput, 'projectId' | 'themeId'> {
  const out: Omit<BrandingUpdateThemeInput, 'projectId' | 'themeId'> = {};
  if (draft.name.trim() !== saved.name) out.name = draft.name.trim();
  for (const key of BRANDING_COLOR_KEYS) {
    const before = saved.colors[key];
    const after = draft.colors[key];
    if (before !== after) out[key] = after ?? null;
  }
  if (draft.logo && draft.logo.url !== saved.logo?.url) Object.assign(out, { logo_url: draft.logo.url, ...(draft.logo.type ? { logo_type: draft.logo.type } : {}) });
  if (!draft.logo && saved.logo) out.logo_url = null;
  if (draft.favicon && draft.favicon.url !== saved.favicon?.url) Object.assign(out, { favicon_url: draft.favicon.url, ...(draft.favicon.type ? { favicon_type: draft.favicon.type } : {}) });
  if (!draft.favicon && saved.favicon) out.favicon_url = null;
  return out;
}

/** One colour key: the native picker, its hex value as text, and a way back to the default. */
function ColorField({ name, value, onChange }: { name: BrandingColorKey; value: string | undefined; onChange: (value: string | undefined) => void }) {
  const [text, setText] = useState(value ?? '');
  useEffect(() => setText(value ?? ''), [value]);
  const label = colorLabel(name);
  const invalid = text !== '' && !HEX.test(text.trim());
  return (
    <div className="color-field" data-testid={`color-${name}`}>
      <input
        type="color"
        className="color-swatch-input"
        aria-label={`${label}: pick a colour`}
        value={pickerValue(value ?? defaultOf(name))}
        onChange={(e) => onChange(e.target.value)}
        data-testid={`color-picker-${name}`}
      />
      <TextField
        label={label}
        value={text}
        placeholder={`Default (${defaultOf(name)})`}
        spellCheck={false}
        autoComplete="off"
        error={invalid ? 'Use a hex colour such as #3b31c7.' : undefined}
        onChange={(e) => {
          const next = e.target.value;
          setText(next);
          if (next.trim() === '') onChange(undefined);
          else if (HEX.test(next.trim())) onChange(next.trim());
        }}
        data-testid={`color-text-${name}`}
      />
      {value !== undefined && (
        <Button variant="ghost" onClick={() => onChange(undefined)} aria-label={`${label}: use the default`} data-testid={`color-reset-${name}`}>
          Default
        </Button>
      )}
    </div>
  );
}

/** A logo or favicon: an uploaded image of an allowed type and size, read as a data URL, or none (removed). */
function ImageField({ label, kind, value, onChange }: { label: string; kind: 'logo' | 'favicon'; value: Image | undefined; onChange: (image: Image | undefined) => void }) {
  const [error, setError] = useState<string | null>(null);
  const id = `image-${kind}`;
  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = brandingImageProblem(file);
    if (problem) {
      setError(problem);
      return;
    }
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      const checked = brandingImageSchema.safeParse(url);
      if (!checked.success) {
        setError(checked.error.issues[0]?.message ?? 'This image cannot be used.');
        return;
      }
      setError(null);
      onChange({ url, type: file.type });
    };
    reader.onerror = () => setError('The file could not be read.');
    reader.readAsDataURL(file);
  };
  return (
    <div className="field image-field" data-testid={`${id}-field`}>
      <label htmlFor={id}>{label}</label>
      {value && (
        <div className="image-field-current">
          <img src={value.url} alt={`Current ${kind}`} className={`image-field-preview image-field-${kind}`} data-testid={`${id}-preview`} />
          <Button variant="ghost" onClick={() => onChange(undefined)} aria-label={`Remove the ${kind}`} data-testid={`${id}-remove`}>
            Remove
          </Button>
        </div>
      )}
      <input id={id} type="file" accept={BRANDING_IMAGE_TYPES.join(',')} onChange={pick} aria-describedby={`${id}-hint`} data-testid={`${id}-input`} />
      <p className="hint" id={`${id}-hint`}>
        PNG, JPEG, SVG, WebP, GIF or ICO, at most {BRANDING_IMAGE_MAX_BYTES / 1024} KB.
      </p>
      {error && (
        <p className="form-error" role="alert" data-testid={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

function Editor({ projectId, theme, active }: { projectId: string; theme: BrandingTheme; active: boolean }) {
  const [saved, setSaved] = useState(() => draftOf(theme));
  const [draft, setDraft] = useState(saved);
  const changes = useMemo(() => changesOf(saved, draft), [saved, draft]);
  const dirty = Object.keys(changes).length > 0;
  useUnsavedChangesGuard(dirty);
  const warnings = contrastWarnings(draft.colors);
  const update = trpc.branding.updateTheme.useMutation({
    onSuccess: (updated) => {
      const next = draftOf(updated);
      setSaved(next);
      setDraft(next);
      toast.success('Theme saved');
    },
    onError: (error) => toast.error(`Could not save the theme: ${errorText(error) ?? 'please try again.'}`),
  });
  const activate = trpc.branding.activate.useMutation({
    onSuccess: () => toast.success(`“${saved.name}” is now the theme of the hosted pages`),
    onError: (error) => toast.error(`Could not activate the theme: ${errorText(error) ?? 'please try again.'}`),
  });
  const setColor = (key: BrandingColorKey, value: string | undefined) =>
    setDraft((d) => {
      const colors = { ...d.colors };
      if (value === undefined) delete colors[key];
      else colors[key] = value;
      return { ...d, colors };
    });
  const nameError = draft.name.trim() === '' ? 'Give the theme a name.' : draft.name.trim().length > 64 ? 'Use at most 64 characters for the name.' : undefined;

  return (
    <div className="customize-layout">
      <div className="customize-controls">
        <Card title="Theme" testId="customize-theme-card">
          <div className="inline-form">
            <TextField label="Name" value={draft.name} error={nameError} onChange={(e) => setDraft((d) => ({ ...d, name: e.target.value }))} data-testid="customize-name" />
            <ImageField label="Logo" kind="logo" value={draft.logo} onChange={(logo) => setDraft((d) => ({ ...d, logo }))} />
            <ImageField label="Favicon" kind="favicon" value={draft.favicon} onChange={(favicon) => setDraft((d) => ({ ...d, favicon }))} />
          </div>
        </Card>
        {(Object.keys(BRANDING_COLOR_GROUPS) as (keyof typeof BRANDING_COLOR_GROUPS)[]).map((group) => (
          <Card key={group} title={group} testId={`color-group-${group}`}>
            <div className="color-grid">
              {BRANDING_COLOR_GROUPS[group].map((key) => (
                <ColorField key={key} name={key} value={draft.colors[key]} onChange={(v) => setColor(key, v)} />
              ))}
            </div>
          </Card>
        ))}
      </div>
      <div className="customize-preview">
        <div className="customize-actions">
          {dirty && (
            <span className="hint" role="status" data-testid="customize-unsaved">
              Unsaved changes
            </span>
          )}
          <Button onClick={() => setDraft(saved)} disabled={!dirty || update.isPending} data-testid="customize-discard">
            Discard
          </Button>
          <Button
            variant="primary"
            busy={update.isPending}
            disabled={!dirty || nameError !== undefined}
            onClick={() => update.mutate({ projectId, themeId: theme.id, ...changes })}
            data-testid="customize-save"
          >
            Save theme
          </Button>
          {!active && (
            <Button
              disabled={dirty}
              busy={activate.isPending}
              onClick={() => activate.mutate({ projectId, themeId: theme.id })}
              data-testid="customize-activate"
            >
              Activate
            </Button>
          )}
        </div>
        {warnings.length > 0 && (
          <div className="banner" role="status" data-testid="contrast-warnings">
            <p>Some text may be hard to read (WCAG asks for a contrast of at least 4.5:1):</p>
            <ul>
              {warnings.map((w) => (
                <li key={w.what}>
                  {w.what}: {w.ratio}:1
                </li>
              ))}
            </ul>
          </div>
        )}
        <div className="theme-preview-pair">
          <ThemePreview page="login" colors={draft.colors} logo={draft.logo?.url} />
          <ThemePreview page="registration" colors={draft.colors} logo={draft.logo?.url} />
        </div>
      </div>
    </div>
  );
}

/**
 * /projects/{project}/account-experience/theming/customize?theme={id}: one theme's name, logo, favicon and
 * Ory's colour keys in groups, with the sign-in and sign-up pages previewed side by side as they are edited,
 * warnings where text would be hard to read, and a guard against leaving with unsaved changes. Without a
 * theme in the address, the active theme is edited.
 */
export default function CustomizeThemePage() {
  const project = useProject();
  const search = useSearch();
  const wanted = new URLSearchParams(search).get('theme');
  const branding = trpc.branding.get.useQuery({ projectId: project.id });
  return (
    <div className="page" data-testid="customize-theme-page">
      <PageHeader
        title="Customize theme"
        description="Pick the colours and images of a theme; the previews follow as you edit. The hosted pages wear the theme once it is saved and active."
        actions={
          <LinkButton href={ROUTES.theming.build({ project: project.id })} variant="secondary">
            All themes
          </LinkButton>
        }
      />
      <QueryView query={branding} skeleton="form" errorTitle="The theme could not be loaded">
        {(b) => {
          const theme = wanted ? b.themes.find((t) => t.id === wanted) : b.default_theme;
          if (!theme) {
            return (
              <p role="alert" data-testid="customize-missing">
                This theme no longer exists. <a href={ROUTES.theming.build({ project: project.id })}>Choose another theme</a>.
              </p>
            );
          }
          return <Editor key={theme.id} projectId={project.id} theme={theme} active={theme.id === b.default_theme.id} />;
        }}
      </QueryView>
    </div>
  );
}
