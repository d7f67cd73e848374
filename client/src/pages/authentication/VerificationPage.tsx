import { verificationForm, type ProjectConfig } from '../../../../shared/schemas/project-config';
import { trpc } from '../../trpc';
import { ConfigSectionPage, type ConfigField } from './ConfigSectionForm';

type Values = ProjectConfig['verification'];

const FIELDS: readonly ConfigField<Values>[] = [
  { key: 'enabled', kind: 'checkbox', label: 'Let users verify their address', hint: 'Off: the verification flow is refused and sign-up sends no verification email.' },
  { key: 'lifespan', kind: 'text', label: 'Lifespan', placeholder: '1h', hint: 'How long the flow and its code work. Write a duration such as 15m or 1h; leave empty for the default, 1h.' },
  { key: 'notify_unknown_recipients', kind: 'checkbox', label: 'Tell unknown addresses', hint: 'An address with no account gets an email saying so, instead of nothing.' },
];

/** /projects/{project}/authentication/verification: whether and how users confirm their address. */
export default function VerificationPage() {
  const save = trpc.projectConfig.setVerification.useMutation();
  return (
    <ConfigSectionPage<Values>
      testId="verification-settings"
      title="Email verification"
      description="Whether and how users confirm the email address they signed up with."
      schema={verificationForm}
      fields={FIELDS}
      read={(c) => c.verification}
      save={(projectId, changes, revisionId) => save.mutateAsync({ projectId, revisionId, ...changes })}
      submitLabel="Save verification"
      savedMessage="Verification settings saved"
    />
  );
}
