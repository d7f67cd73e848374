import { mfaForm, type ProjectConfig } from '../../../../shared/schemas/project-config';
import { trpc } from '../../trpc';
import { ConfigSectionPage, type ConfigField } from './ConfigSectionForm';

const mfaPageForm = mfaForm.pick({ totp_enabled: true, totp_issuer: true, lookup_secret_enabled: true, webauthn_enabled: true, code_mfa_enabled: true, whoami_required_aal: true, settings_required_aal: true });
type Values = Pick<ProjectConfig['mfa'], 'totp_enabled' | 'totp_issuer' | 'lookup_secret_enabled' | 'webauthn_enabled' | 'code_mfa_enabled' | 'whoami_required_aal' | 'settings_required_aal'>;

const AAL_OPTIONS = [
  { value: 'highest_available', label: 'Highest available' },
  { value: 'aal1', label: 'aal1 (one factor)' },
];

const FIELDS: readonly ConfigField<Values>[] = [
  { key: 'totp_enabled', kind: 'checkbox', label: 'Authenticator app (TOTP)', hint: 'Users can add an app such as Google Authenticator in their settings and type its code after their password.' },
  { key: 'totp_issuer', kind: 'text', label: 'Issuer shown in the app', placeholder: 'The project’s domain', hint: 'The name the authenticator app lists the account under. Leave empty for the project’s domain.' },
  { key: 'lookup_secret_enabled', kind: 'checkbox', label: 'Backup codes', hint: 'Users can save one-time codes to sign in with when they do not have their authenticator app.' },
  {
    key: 'code_mfa_enabled',
    kind: 'checkbox',
    label: 'Codes by email',
    hint: 'After their password, users type a one-time code sent to their email address. Not together with sign-in codes on the Passwordless page.',
  },
  { key: 'webauthn_enabled', kind: 'checkbox', label: 'Security keys (WebAuthn)', hint: 'Users can add a hardware key or their device’s screen lock in their settings and use it after their password.' },
  {
    key: 'whoami_required_aal',
    kind: 'select',
    label: 'Assurance level the session check requires',
    hint: 'Highest available: a user with a second factor must have used it before the session counts. aal1: one factor is enough.',
    options: AAL_OPTIONS,
  },
  {
    key: 'settings_required_aal',
    kind: 'select',
    label: 'Assurance level account settings require',
    hint: 'Highest available: a user with a second factor must have used it before changing their settings. aal1: one factor is enough.',
    options: AAL_OPTIONS,
  },
];

/** /projects/{project}/mfa: the second factors users may add and when the project asks for them. */
export default function MfaPage() {
  const save = trpc.projectConfig.setMfa.useMutation();
  return (
    <ConfigSectionPage<Values>
      testId="mfa-settings"
      title="Two-factor authentication"
      description="Second factors users can add to their account, and where a signed-in user must have used one."
      schema={mfaPageForm}
      fields={FIELDS}
      read={(c) => ({
        totp_enabled: c.mfa.totp_enabled,
        totp_issuer: c.mfa.totp_issuer,
        lookup_secret_enabled: c.mfa.lookup_secret_enabled,
        webauthn_enabled: c.mfa.webauthn_enabled,
        code_mfa_enabled: c.mfa.code_mfa_enabled,
        whoami_required_aal: c.mfa.whoami_required_aal,
        settings_required_aal: c.mfa.settings_required_aal,
      })}
      save={(projectId, changes, revisionId) => save.mutateAsync({ projectId, revisionId, ...changes })}
      submitLabel="Save two-factor settings"
      savedMessage="Two-factor settings saved"
    />
  );
}
