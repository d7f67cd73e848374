import { sessionCookieForm, type ProjectConfig } from '../../../../shared/schemas/project-config';
import { trpc } from '../../trpc';
import { ConfigSectionPage, type ConfigField } from '../authentication/ConfigSectionForm';

type Values = Pick<ProjectConfig['sessions'], 'cookie_name' | 'cookie_domain' | 'cookie_same_site' | 'cookie_persistent' | 'cookie_path' | 'cookie_secure'>;

const FIELDS: readonly ConfigField<Values>[] = [
  { key: 'cookie_name', kind: 'text', label: 'Cookie name', placeholder: 'Default', hint: 'Leave empty for the project’s default name.' },
  { key: 'cookie_domain', kind: 'text', label: 'Cookie domain', placeholder: 'The API’s own domain', hint: 'A domain such as example.com shares the session with its subdomains. Leave empty for the API’s own domain.' },
  {
    key: 'cookie_same_site',
    kind: 'select',
    label: 'SameSite mode',
    hint: 'Lax suits most sites; Strict never sends the cookie from another site; None needs HTTPS.',
    options: [
      { value: 'Lax', label: 'Lax' },
      { value: 'Strict', label: 'Strict' },
      { value: 'None', label: 'None' },
    ],
  },
  { key: 'cookie_persistent', kind: 'checkbox', label: 'Keep the session when the browser closes', hint: 'Off: the cookie is a session cookie that ends with the browser.' },
  { key: 'cookie_path', kind: 'text', label: 'Cookie path', placeholder: 'The API’s own path', hint: 'The browser sends the cookie only to URLs under this path. Leave empty for the API’s own path.' },
  {
    key: 'cookie_secure',
    kind: 'select',
    label: 'Secure flag',
    hint: 'A secure cookie is sent over HTTPS only.',
    options: [
      { value: '', label: 'Automatic: when the API is served over HTTPS' },
      { value: 'true', label: 'Always' },
      { value: 'false', label: 'Never' },
    ],
  },
];

/** /projects/{project}/session-settings: the session cookie of the project's API. */
export default function SessionSettingsPage() {
  const save = trpc.projectConfig.setSessions.useMutation();
  return (
    <ConfigSectionPage<Values>
      testId="session-settings"
      title="Session settings"
      description="The cookie that keeps users of this project signed in."
      schema={sessionCookieForm}
      fields={FIELDS}
      read={(c) => ({ cookie_name: c.sessions.cookie_name, cookie_domain: c.sessions.cookie_domain, cookie_same_site: c.sessions.cookie_same_site, cookie_persistent: c.sessions.cookie_persistent, cookie_path: c.sessions.cookie_path, cookie_secure: c.sessions.cookie_secure })}
      save={(projectId, changes, revisionId) => save.mutateAsync({ projectId, revisionId, ...changes })}
      submitLabel="Save session settings"
      savedMessage="Session settings saved"
    />
  );
}
