import toast from 'react-hot-toast';
import { emailConfigForm, type EmailConfig, type EmailConfigFormValues } from '../../../../shared/schemas/messaging';
import { Card, PageHeader } from '../../components/Card';
import { QueryView } from '../../components/QueryView';
import { SettingsForm } from '../../components/SettingsForm';
import { Select, TextField } from '../../components/TextField';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { TestSendCard } from './TestSendCard';

const STRATEGIES = [
  { value: 'default', label: 'Default sender (the local mailbox on a local stack)' },
  { value: 'smtp', label: 'Your SMTP server' },
  { value: 'http', label: 'Your HTTP endpoint' },
];
const SECURITY = [
  { value: 'starttls', label: 'STARTTLS (smtp://)' },
  { value: 'implicit', label: 'Implicit TLS (smtps://)' },
  { value: 'none', label: 'None: cleartext' },
];
const METHODS = [
  { value: 'POST', label: 'POST' },
  { value: 'PUT', label: 'PUT' },
  { value: 'PATCH', label: 'PATCH' },
];

/** The form's values: the password field starts empty, since the console never has it. */
export function formValues(config: EmailConfig): EmailConfigFormValues {
  return {
    strategy: config.strategy,
    fromAddress: config.fromAddress,
    fromName: config.fromName,
    smtpHost: config.smtpHost,
    smtpPort: config.smtpPort === null ? '' : String(config.smtpPort),
    smtpUsername: config.smtpUsername,
    smtpPassword: '',
    smtpSecurity: config.smtpSecurity,
    httpUrl: config.httpUrl,
    httpMethod: config.httpMethod,
  };
}

function EmailForm({ projectId, config }: { projectId: string; config: EmailConfig }) {
  const utils = trpc.useUtils();
  const save = trpc.messaging.setEmailConfig.useMutation({ onSuccess: (saved) => utils.messaging.emailConfig.setData({ projectId }, saved) });
  return (
    <SettingsForm
      schema={emailConfigForm}
      values={formValues(config)}
      testId="email-config-form"
      submitLabel="Save email settings"
      errorContext="Could not save the email settings"
      onSave={async (changes, all) => {
        const { smtpPort, ...rest } = changes;
        // The SMTP fields travel together when SMTP is chosen, so a switch back to it is complete.
        const smtp = all.strategy === 'smtp' && changes.strategy ? { smtpHost: all.smtpHost, smtpUsername: all.smtpUsername, smtpSecurity: all.smtpSecurity } : {};
        return save.mutateAsync({
          projectId,
          ...smtp,
          ...rest,
          ...(smtpPort !== undefined ? { smtpPort: smtpPort === '' ? null : Number(smtpPort) } : {}),
        });
      }}
      onSaved={() => toast.success('Email settings saved')}
      reload={async () => formValues(await utils.messaging.emailConfig.fetch({ projectId }, { staleTime: 0 }))}
    >
      {(form) => {
        const strategy = form.watch('strategy');
        const e = form.formState.errors;
        return (
          <>
            <Select label="Delivery" options={STRATEGIES} error={e.strategy?.message} data-testid="email-strategy" {...form.register('strategy')} />
            <TextField label="Sender address" type="email" autoComplete="off" error={e.fromAddress?.message} data-testid="email-from-address" {...form.register('fromAddress')} />
            <TextField label="Sender name" autoComplete="off" error={e.fromName?.message} data-testid="email-from-name" {...form.register('fromName')} />
            {strategy === 'smtp' && (
              <fieldset className="fieldset" data-testid="smtp-fields">
                <legend>SMTP server</legend>
                <TextField label="Host" autoComplete="off" placeholder="smtp.example.com" error={e.smtpHost?.message} data-testid="smtp-host" {...form.register('smtpHost')} />
                <TextField label="Port" inputMode="numeric" autoComplete="off" placeholder="587" error={e.smtpPort?.message} data-testid="smtp-port" {...form.register('smtpPort')} />
                <Select label="Security" options={SECURITY} error={e.smtpSecurity?.message} data-testid="smtp-security" {...form.register('smtpSecurity')} />
                <TextField label="User name" autoComplete="off" error={e.smtpUsername?.message} data-testid="smtp-username" {...form.register('smtpUsername')} />
                <TextField
                  label="Password"
                  type="password"
                  autoComplete="new-password"
                  placeholder={config.smtpPasswordSet ? '•••••••• (saved; type to replace)' : ''}
                  hint={config.smtpPasswordSet ? 'A password is saved. Leave this empty to keep it.' : undefined}
                  error={e.smtpPassword?.message}
                  data-testid="smtp-password"
                  {...form.register('smtpPassword')}
                />
              </fieldset>
            )}
            {strategy === 'http' && (
              <fieldset className="fieldset" data-testid="http-fields">
                <legend>HTTP endpoint</legend>
                <TextField label="URL" type="url" autoComplete="off" placeholder="https://mail.example.com/send" error={e.httpUrl?.message} data-testid="http-url" {...form.register('httpUrl')} />
                <Select label="Method" options={METHODS} error={e.httpMethod?.message} data-testid="http-method" {...form.register('httpMethod')} />
              </fieldset>
            )}
          </>
        );
      }}
    </SettingsForm>
  );
}

/** /projects/{project}/email-configuration: how the project's emails leave (default, SMTP or HTTP) and who sends them; a test send. */
export default function EmailConfigurationPage() {
  const project = useProject();
  const config = trpc.messaging.emailConfig.useQuery({ projectId: project.id });
  return (
    <div className="page page-narrow" data-testid="email-configuration-page">
      <PageHeader title="Email configuration" description="The server that delivers your project’s emails and the sender your users see." />
      <Card title="Sender and server">
        <QueryView query={config} skeleton="card" errorTitle="The email settings could not be loaded">
          {(c) => <EmailForm projectId={project.id} config={c} />}
        </QueryView>
      </Card>
      {/* Below the form only once the form is in: a card under a loading one would jump down (layout shift). */}
      {!config.isPending && <TestSendCard projectId={project.id} channel="email" />}
    </div>
  );
}
