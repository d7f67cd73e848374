/** Colours of the provider kinds' marks (their brands' main colour; a neutral one for the rest). */
const COLOURS: Record<string, string> = {
  google: '#4285F4',
  github: '#24292F',
  microsoft: '#00A4EF',
  apple: '#000000',
  gitlab: '#FC6D26',
  discord: '#5865F2',
  slack: '#4A154B',
  facebook: '#1877F2',
  auth0: '#EB5424',
  spotify: '#1DB954',
  linkedin: '#0A66C2',
  x: '#000000',
  salesforce: '#00A1E0',
  amazon: '#FF9900',
  patreon: '#FF424D',
  yandex: '#FC3F1D',
  vk: '#0077FF',
};

/** A provider kind's mark: its initials on its colour, drawn here (no images are fetched). */
export function ProviderLogo({ kind, label, size = 32 }: { kind: string; label: string; size?: number }) {
  const initials = kind === 'generic' ? 'ID' : label.replace(/[^A-Za-z0-9]/g, '').slice(0, 2) || '?';
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false" className="provider-logo">
      <rect width="32" height="32" rx="8" fill={COLOURS[kind] ?? '#52606D'} />
      <text x="16" y="20.5" textAnchor="middle" fontSize="12" fontWeight="700" fill="#FFFFFF" fontFamily="system-ui, sans-serif">
        {initials}
      </text>
    </svg>
  );
}
