import { passwordlessForm, type ProjectConfig } from '../../../../shared/schemas/project-config';
import { Card } from '../../components/Card';
import { QueryView } from '../../components/QueryView';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { SmsChannelForm } from '../messaging/SmsChannelForm';
import { TestSendCard } from '../messaging/TestSendCard';
import { ConfigSectionPage, type ConfigField } from './ConfigSectionForm';

const passwordlessPageForm = passwordlessForm.pick({ code_passwordless_enabled: true, code_lifespan: true, passkey_enabled: true, passkey_display_name: true });
type Values = Pick<ProjectConfig['passwordless'], 'code_passwordless_enabled' | 'code_lifespan' | 'passkey_enabled' | 'passkey_display_name'>;

const FIELDS: readonly ConfigField<Values>[] = [
  { key: 'code_passwordless_enabled', kind: 'checkbox', label: 'Sign-in codes by email or SMS', hint: 'Users can sign up and sign in with a one-time code instead of a password. Sign-in codes go by SMS to a phone number the identity schema marks as a code identifier with via sms, by email otherwise; sign-up codes go by email.' },
  {
    key: 'code_lifespan',
    kind: 'text',
    label: 'How long a code works',
    placeholder: '1h',
    hint: 'Write a duration such as 15m or 1h; leave empty for the default, 1h.',
  },
  { key: 'passkey_enabled', kind: 'checkbox', label: 'Passkeys', hint: 'Users can sign up with a passkey instead of a password, and sign in with it.' },
  {
    key: 'passkey_display_name',
    kind: 'text',
    label: 'Name shown when a passkey is created',
    placeholder: 'The project’s domain',
    hint: 'The name the device shows when it saves the passkey. Leave empty for the project’s domain.',
  },
];

/** The SMS channel that delivers codes to phone numbers (`courier.channels`), and a test send through it. */
function SmsChannelCards() {
  const project = useProject();
  const config = trpc.messaging.smsConfig.useQuery({ projectId: project.id });
  return (
    <>
      <Card title="SMS channel" testId="passwordless-sms-card">
        <QueryView query={config} skeleton="card" errorTitle="The SMS settings could not be loaded">
          {(c) => <SmsChannelForm projectId={project.id} config={c} />}
        </QueryView>
      </Card>
      <TestSendCard projectId={project.id} channel="sms" />
    </>
  );
}

/** /projects/{project}/passwordless: sign-up and sign-in without a password; the SMS channel codes go through. */
export default function PasswordlessPage() {
  const save = trpc.projectConfig.setPasswordless.useMutation();
  return (
    <ConfigSectionPage<Values>
      testId="passwordless-settings"
      title="Passwordless"
      description="Ways to sign in without a password."
      schema={passwordlessPageForm}
      fields={FIELDS}
      read={(c) => ({
        code_passwordless_enabled: c.passwordless.code_passwordless_enabled,
        code_lifespan: c.passwordless.code_lifespan,
        passkey_enabled: c.passwordless.passkey_enabled,
        passkey_display_name: c.passwordless.passkey_display_name,
      })}
      save={(projectId, changes, revisionId) => save.mutateAsync({ projectId, revisionId, ...changes })}
      submitLabel="Save passwordless settings"
      savedMessage="Passwordless settings saved"
    >
      <SmsChannelCards />
    </ConfigSectionPage>
  );
}
