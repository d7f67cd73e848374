import toast from 'react-hot-toast';
import { oauth2CookiesForm, type OAuth2Config } from '../../../../shared/schemas/oauth2';
import { Card, PageHeader } from '../../components/Card';
import { QueryView } from '../../components/QueryView';
import { SettingsForm } from '../../components/SettingsForm';
import { Select } from '../../components/TextField';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';

function CookiesForm({ projectId, config }: { projectId: string; config: OAuth2Config }) {
  const utils = trpc.useUtils();
  const save = trpc.oauth2Config.setCookies.useMutation({ onSuccess: (saved) => utils.oauth2Config.get.setData({ projectId }, saved) });
  return (
    <SettingsForm
      schema={oauth2CookiesForm}
      values={config.cookies}
      testId="oauth2-cookies-form"
      submitLabel="Save cookies"
      errorContext="Could not save the cookie settings"
      onSave={async (_changes, all) => (await save.mutateAsync({ projectId, same_site_mode: all.same_site_mode })).cookies}
      onSaved={() => toast.success('Cookie settings saved')}
      reload={async () => (await utils.oauth2Config.get.fetch({ projectId }, { staleTime: 0 })).cookies}
    >
      {(form) => (
        <Select
          label="SameSite mode"
          hint="Lax suits most sites; Strict never sends the cookies from another site; None needs HTTPS and allows embedding."
          options={[
            { value: 'Lax', label: 'Lax' },
            { value: 'Strict', label: 'Strict' },
            { value: 'None', label: 'None' },
          ]}
          error={form.formState.errors.same_site_mode?.message}
          data-testid="oauth2-cookies-same-site"
          {...form.register('same_site_mode')}
        />
      )}
    </SettingsForm>
  );
}

/** /projects/{project}/oauth/cookies: the attributes of the cookies the project's OAuth2 server sets. */
export default function OAuth2CookiesPage() {
  const project = useProject();
  const config = trpc.oauth2Config.get.useQuery({ projectId: project.id });
  return (
    <div className="page page-narrow" data-testid="oauth2-cookies-page">
      <PageHeader title="Cookies" description="The OAuth2 server keeps a user's sign-in and consent steps in cookies of its own." />
      <Card>
        <QueryView query={config} skeleton="card" errorTitle="The OAuth2 settings could not be loaded">
          {(c) => <CookiesForm projectId={project.id} config={c} />}
        </QueryView>
      </Card>
    </div>
  );
}
