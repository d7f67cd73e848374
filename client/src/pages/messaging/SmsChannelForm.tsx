import toast from 'react-hot-toast';
import { smsConfigForm, type SmsConfig, type SmsConfigFormValues } from '../../../../shared/schemas/messaging';
import { SettingsForm } from '../../components/SettingsForm';
import { Select, TextField } from '../../components/TextField';
import { trpc } from '../../trpc';

const METHODS = [
  { value: 'POST', label: 'POST' },
  { value: 'PUT', label: 'PUT' },
  { value: 'PATCH', label: 'PATCH' },
];

const AUTH = [
  { value: 'none', label: 'None' },
  { value: 'basic_auth', label: 'Basic (user name and password)' },
  { value: 'api_key', label: 'API key in a header' },
];

/** The form's values: the secret starts empty, since the console never has it. */
function formValues(config: SmsConfig): SmsConfigFormValues {
  return { enabled: config.enabled, url: config.url, method: config.method, authType: config.authType, basicUser: config.basicUser, apiKeyName: config.apiKeyName, secret: '' };
}

/**
 * The `sms` channel of the project's courier (`courier.channels`): the HTTP endpoint each text message is sent
 * to, and how it is authenticated. Shown on the SMS configuration and passwordless pages.
 */
export function SmsChannelForm({ projectId, config }: { projectId: string; config: SmsConfig }) {
  const utils = trpc.useUtils();
  const save = trpc.messaging.setSmsConfig.useMutation({ onSuccess: (saved) => utils.messaging.smsConfig.setData({ projectId }, saved) });
  return (
    <SettingsForm
      schema={smsConfigForm}
      values={formValues(config)}
      testId="sms-config-form"
      submitLabel="Save SMS settings"
      errorContext="Could not save the SMS settings"
      onSave={async (changes, all) => {
        // The endpoint's fields travel together when the channel is turned on or its auth changes, so the result is complete.
        const endpoint = changes.enabled ? { url: all.url, method: all.method } : {};
        const auth = changes.authType ? { basicUser: all.basicUser, apiKeyName: all.apiKeyName } : {};
        return save.mutateAsync({ projectId, ...endpoint, ...auth, ...changes });
      }}
      onSaved={() => toast.success('SMS settings saved')}
      reload={async () => formValues(await utils.messaging.smsConfig.fetch({ projectId }, { staleTime: 0 }))}
    >
      {(form) => {
        const e = form.formState.errors;
        const authType = form.watch('authType');
        const secretHint = config.secretSet && config.authType === authType ? 'A secret is saved. Leave this empty to keep it.' : undefined;
        return (
          <>
            <label className="checkbox">
              <input type="checkbox" data-testid="sms-enabled" {...form.register('enabled')} /> Send text messages through my own HTTP endpoint
            </label>
            {form.watch('enabled') && (
              <>
                <TextField label="URL" type="url" autoComplete="off" placeholder="https://sms.example.com/send" error={e.url?.message} data-testid="sms-url" {...form.register('url')} />
                <Select label="Method" options={METHODS} error={e.method?.message} data-testid="sms-method" {...form.register('method')} />
                <p className="field-hint" data-testid="sms-body-note">
                  Each message is sent as JSON: {'{ "To": "<phone number>", "Body": "<text>" }'}. Custom Jsonnet bodies are not supported here.
                </p>
                <Select label="Authentication" options={AUTH} error={e.authType?.message} data-testid="sms-auth-type" {...form.register('authType')} />
                {authType === 'basic_auth' && (
                  <TextField label="User name" autoComplete="off" error={e.basicUser?.message} data-testid="sms-basic-user" {...form.register('basicUser')} />
                )}
                {authType === 'api_key' && (
                  <TextField label="Header" autoComplete="off" placeholder="X-Api-Key" error={e.apiKeyName?.message} data-testid="sms-api-key-name" {...form.register('apiKeyName')} />
                )}
                {authType !== 'none' && (
                  <TextField
                    label={authType === 'basic_auth' ? 'Password' : 'API key'}
                    type="password"
                    autoComplete="new-password"
                    placeholder={secretHint ? '•••••••• (saved; type to replace)' : ''}
                    hint={secretHint}
                    error={e.secret?.message}
                    data-testid="sms-secret"
                    {...form.register('secret')}
                  />
                )}
              </>
            )}
          </>
        );
      }}
    </SettingsForm>
  );
}
