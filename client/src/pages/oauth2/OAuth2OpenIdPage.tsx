import toast from 'react-hot-toast';
import type { z } from 'zod';
import { oauth2OpenIdForm, type OAuth2Config } from '../../../../shared/schemas/oauth2';
import { Card, PageHeader } from '../../components/Card';
import { QueryView } from '../../components/QueryView';
import { SettingsForm } from '../../components/SettingsForm';
import { TextField } from '../../components/TextField';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { KeysSection } from './KeysSection';

type Form = z.infer<typeof oauth2OpenIdForm>;
const formOf = (c: OAuth2Config): Form => ({ public: c.openid.subject_types.includes('public'), pairwise: c.openid.subject_types.includes('pairwise'), pairwise_salt: '' });

function OpenIdForm({ projectId, config }: { projectId: string; config: OAuth2Config }) {
  const utils = trpc.useUtils();
  const save = trpc.oauth2Config.setOpenId.useMutation({ onSuccess: (saved) => utils.oauth2Config.get.setData({ projectId }, saved) });
  return (
    <SettingsForm
      schema={oauth2OpenIdForm}
      values={formOf(config)}
      testId="oauth2-openid-form"
      submitLabel="Save OpenID Connect settings"
      errorContext="Could not save the OpenID Connect settings"
      onSave={async (_changes, all) =>
        formOf(
          await save.mutateAsync({
            projectId,
            subject_types: [...(all.public ? (['public'] as const) : []), ...(all.pairwise ? (['pairwise'] as const) : [])],
            ...(all.pairwise_salt ? { pairwise_salt: all.pairwise_salt } : {}),
          }),
        )
      }
      onSaved={() => toast.success('OpenID Connect settings saved')}
      reload={async () => formOf(await utils.oauth2Config.get.fetch({ projectId }, { staleTime: 0 }))}
    >
      {(form) => (
        <>
          <label className="checkbox">
            <input type="checkbox" data-testid="oauth2-subject-public" {...form.register('public')} /> Public subjects: every app sees the same user ID.
          </label>
          <label className="checkbox">
            <input type="checkbox" data-testid="oauth2-subject-pairwise" {...form.register('pairwise')} /> Pairwise subjects: each app sees its own ID for
            a user, so apps cannot match users between them.
          </label>
          {form.formState.errors.public && (
            <p className="field-error" role="alert">
              {form.formState.errors.public.message}
            </p>
          )}
          <TextField
            label="Pairwise salt"
            type="password"
            autoComplete="off"
            hint={config.openid.pairwise_salt_set ? 'A salt is set; type a new one to replace it.' : 'The secret mixed into pairwise IDs, at least 8 characters.'}
            error={form.formState.errors.pairwise_salt?.message}
            data-testid="oauth2-pairwise-salt"
            {...form.register('pairwise_salt')}
          />
        </>
      )}
    </SettingsForm>
  );
}

/** /projects/{project}/oauth/openid: the OpenID Connect side of the project's OAuth2 server. */
export default function OAuth2OpenIdPage() {
  const project = useProject();
  const config = trpc.oauth2Config.get.useQuery({ projectId: project.id });
  return (
    <div className="page page-narrow" data-testid="oauth2-openid-page">
      <PageHeader title="OpenID Connect" description="How users are identified to the apps that sign them in." />
      <Card title="Subject identifiers">
        <QueryView query={config} skeleton="card" errorTitle="The OAuth2 settings could not be loaded">
          {(c) => <OpenIdForm projectId={project.id} config={c} />}
        </QueryView>
      </Card>
      <KeysSection projectId={project.id} />
    </div>
  );
}
