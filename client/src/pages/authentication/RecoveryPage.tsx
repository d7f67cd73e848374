import { recoveryForm, type ProjectConfig } from '../../../../shared/schemas/project-config';
import { trpc } from '../../trpc';
import { ConfigSectionPage, type ConfigField } from './ConfigSectionForm';

type Values = ProjectConfig['recovery'];

const FIELDS: readonly ConfigField<Values>[] = [
  { key: 'enabled', kind: 'checkbox', label: 'Let users recover their account', hint: 'Off: the recovery flow is refused.' },
  {
    key: 'use',
    kind: 'select',
    label: 'Method',
    hint: 'A one-time code to type in, or a link that signs the user in when opened.',
    options: [
      { value: 'code', label: 'One-time code' },
      { value: 'link', label: 'Link' },
    ],
  },
  { key: 'lifespan', kind: 'text', label: 'Lifespan', placeholder: '1h', hint: 'How long the flow and its code or link work. Write a duration such as 15m or 1h; leave empty for the default, 1h.' },
  { key: 'notify_unknown_recipients', kind: 'checkbox', label: 'Tell unknown addresses', hint: 'An address with no account gets an email saying so, instead of nothing.' },
];

/** /projects/{project}/authentication/recovery: whether and how users regain access to their account. */
export default function RecoveryPage() {
  const save = trpc.projectConfig.setRecovery.useMutation();
  return (
    <ConfigSectionPage<Values>
      testId="recovery-settings"
      title="Account recovery"
      description="How users regain access to their account when they forget their password."
      schema={recoveryForm}
      fields={FIELDS}
      read={(c) => c.recovery}
      save={(projectId, changes, revisionId) => save.mutateAsync({ projectId, revisionId, ...changes })}
      submitLabel="Save recovery"
      savedMessage="Recovery settings saved"
    />
  );
}
