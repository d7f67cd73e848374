import toast from 'react-hot-toast';
import { smsConfigForm, type SmsConfig } from '../../../../shared/schemas/messaging';
import { Card, PageHeader } from '../../components/Card';
import { QueryView } from '../../components/QueryView';
import { SettingsForm } from '../../components/SettingsForm';
import { Select, TextField } from '../../components/TextField';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { TestSendCard } from './TestSendCard';

const METHODS = [
  { value: 'POST', label: 'POST' },
  { value: 'PUT', label: 'PUT' },
  { value: 'PATCH', label: 'PATCH' },
];

function SmsForm({ projectId, config }: { projectId: string; config: SmsConfig }) {
  const utils = trpc.useUtils();
  const save = trpc.messaging.setSmsConfig.useMutation({ onSuccess: (saved) => utils.messaging.smsConfig.setData({ projectId }, saved) });
  return (
    <SettingsForm
      schema={smsConfigForm}
      values={config}
      testId="sms-config-form"
      submitLabel="Save SMS settings"
      errorContext="Could not save the SMS settings"
      onSave={async (changes, all) => save.mutateAsync({ projectId, ...changes, ...(changes.enabled ? { url: all.url, method: all.method } : {}) })}
      onSaved={() => toast.success('SMS settings saved')}
      reload={async () => utils.messaging.smsConfig.fetch({ projectId }, { staleTime: 0 })}
    >
      {(form) => {
        const e = form.formState.errors;
        return (
          <>
            <label className="checkbox">
              <input type="checkbox" data-testid="sms-enabled" {...form.register('enabled')} /> Send text messages through my own HTTP endpoint
            </label>
            {form.watch('enabled') && (
              <>
                <TextField label="URL" type="url" autoComplete="off" placeholder="https://sms.example.com/send" error={e.url?.message} data-testid="sms-url" {...form.register('url')} />
                <Select label="Method" options={METHODS} error={e.method?.message} data-testid="sms-method" {...form.register('method')} />
              </>
            )}
          </>
        );
      }}
    </SettingsForm>
  );
}

/** /projects/{project}/sms-configuration: the HTTP endpoint that delivers the project's text messages; a test send. */
export default function SmsConfigurationPage() {
  const project = useProject();
  const config = trpc.messaging.smsConfig.useQuery({ projectId: project.id });
  return (
    <div className="page page-narrow" data-testid="sms-configuration-page">
      <PageHeader title="SMS configuration" description="The provider that delivers codes to your users’ phones. Without one, text messages go to the default sender (the local mailbox on a local stack)." />
      <Card title="Provider">
        <QueryView query={config} skeleton="card" errorTitle="The SMS settings could not be loaded">
          {(c) => <SmsForm projectId={project.id} config={c} />}
        </QueryView>
      </Card>
      <TestSendCard projectId={project.id} channel="sms" />
    </div>
  );
}
