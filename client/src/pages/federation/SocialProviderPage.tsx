import { useState } from 'react';
import toast from 'react-hot-toast';
import { useLocation, useParams, useSearch } from 'wouter';
import { z } from 'zod';
import { previewClaimsMapping, socialProviderKind, socialRedirectUri, type SocialProviderKind } from '../../../../shared/domain/social-providers';
import type { SocialProviderView } from '../../../../shared/schemas/social-providers';
import { Button } from '../../components/Button';
import { Card, EmptyState, PageHeader } from '../../components/Card';
import { CopyValue } from '../../components/CopyButton';
import { ConfirmDialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { SettingsForm } from '../../components/SettingsForm';
import { Select, TextArea, TextField } from '../../components/TextField';
import { errorCode, errorText } from '../../lib/errors';
import { QUERY_RULES } from '../../lib/query-client';
import { ROUTES } from '../../routes';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { ProviderLogo } from './ProviderLogo';
import { SocialSignInSwitch } from './SocialSignInPage';

const url = (label: string) =>
  z.string().trim().max(2048, { error: `${label} has at most 2048 characters` }).refine((v) => v === '' || /^https?:\/\/[^\s]+$/.test(v), { error: `${label} must be an http(s) URL` });

/** The form's fields, as text; scopes are one string separated by spaces. */
const providerFormSchema = z.object({
  label: z.string().trim().max(64, { error: 'The label has at most 64 characters' }),
  client_id: z.string().trim().min(1, { error: 'Give the client ID the provider issued' }).max(255, { error: 'The client ID has at most 255 characters' }),
  client_secret: z.string().trim().max(1024, { error: 'The client secret has at most 1024 characters' }),
  issuer_url: url('The issuer URL'),
  auth_url: url('The authorization URL'),
  token_url: url('The token URL'),
  microsoft_tenant: z.string().trim().max(255, { error: 'The tenant has at most 255 characters' }),
  scope: z.string().trim().max(2048, { error: 'The scopes have at most 2048 characters' }),
  mapper_url: z.string().max(65_536, { error: 'The mapper has at most 65536 characters' }),
  organization_id: z.string(),
});
type ProviderForm = z.infer<typeof providerFormSchema>;

const valuesOf = (p: SocialProviderView | null, kind: SocialProviderKind | undefined): ProviderForm => ({
  label: p?.label ?? '',
  client_id: p?.client_id ?? '',
  client_secret: '',
  issuer_url: p?.issuer_url ?? '',
  auth_url: p?.auth_url ?? '',
  token_url: p?.token_url ?? '',
  microsoft_tenant: p?.microsoft_tenant ?? '',
  scope: (p?.scope ?? kind?.scope ?? []).join(' '),
  mapper_url: p?.mapper_url ?? '',
  organization_id: p?.organization_id ?? '',
});

function ProviderForm({ projectId, id, kind, provider }: { projectId: string; id: string; kind: string; provider: SocialProviderView | null }) {
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const set = trpc.socialProviders.set.useMutation({ onSuccess: (saved) => utils.socialProviders.get.setData({ projectId, id }, saved) });
  const described = socialProviderKind(kind);
  const fields = new Set(described?.fields ?? []);
  const creating = provider === null;
  const organizations = trpc.organizations.list.useQuery({ projectId, pageSize: 100 });
  const organizationOptions = [
    { value: '', label: 'None: a button for everyone' },
    ...(organizations.data?.organizations ?? []).map((o) => ({ value: o.id, label: `${o.label} (${o.domains.join(', ') || 'no domains'})` })),
  ];
  if (provider?.organization_id && !organizationOptions.some((o) => o.value === provider.organization_id)) {
    organizationOptions.push({ value: provider.organization_id, label: provider.organization_id });
  }
  return (
    <SettingsForm
      schema={providerFormSchema}
      values={valuesOf(provider, described)}
      kind={creating ? 'create' : 'edit'}
      testId="social-provider-form"
      submitLabel={creating ? 'Add provider' : 'Save changes'}
      errorContext={creating ? 'Could not add the provider' : 'Could not save the provider'}
      onSave={(_changes, all) =>
        set.mutateAsync({
          projectId,
          id,
          provider: kind,
          create: creating,
          label: all.label,
          client_id: all.client_id,
          ...(all.client_secret ? { client_secret: all.client_secret } : {}),
          ...(fields.has('issuer_url') || all.issuer_url ? { issuer_url: all.issuer_url } : {}),
          ...(fields.has('auth_url') || all.auth_url ? { auth_url: all.auth_url } : {}),
          ...(fields.has('token_url') || all.token_url ? { token_url: all.token_url } : {}),
          ...(fields.has('microsoft_tenant') || all.microsoft_tenant ? { microsoft_tenant: all.microsoft_tenant } : {}),
          scope: all.scope.split(/\s+/).filter(Boolean),
          mapper_url: all.mapper_url,
          organization_id: all.organization_id,
        })
      }
      onSaved={() => {
        toast.success(creating ? 'Provider added' : 'Provider saved');
        if (creating) navigate(ROUTES.socialProvider.build({ project: projectId, provider: id }), { replace: true });
      }}
    >
      {(form) => {
        const err = (k: keyof ProviderForm) => form.formState.errors[k]?.message;
        return (
          <>
            <TextField label="Label" hint="The name on the sign-in button; the kind's name when empty." error={err('label')} data-testid="social-label" {...form.register('label')} />
            <TextField label="Client ID" autoComplete="off" error={err('client_id')} data-testid="social-client-id" {...form.register('client_id')} />
            <TextField
              label="Client secret"
              type="password"
              autoComplete="new-password"
              hint={provider?.client_secret_set ? 'A secret is stored; leave this empty to keep it.' : 'The secret the provider issued with the client ID.'}
              error={err('client_secret')}
              data-testid="social-client-secret"
              {...form.register('client_secret')}
            />
            {fields.has('issuer_url') && (
              <TextField label="Issuer URL" hint="Where the provider's OpenID Connect discovery document is served." error={err('issuer_url')} data-testid="social-issuer-url" {...form.register('issuer_url')} />
            )}
            {fields.has('auth_url') && <TextField label="Authorization URL" hint="Only for providers without discovery." error={err('auth_url')} {...form.register('auth_url')} />}
            {fields.has('token_url') && <TextField label="Token URL" hint="Only for providers without discovery." error={err('token_url')} {...form.register('token_url')} />}
            {fields.has('microsoft_tenant') && <TextField label="Tenant" hint="common, organizations, consumers or your tenant's ID." error={err('microsoft_tenant')} {...form.register('microsoft_tenant')} />}
            <Select
              label="Organization"
              options={organizationOptions}
              hint="Users whose email domain belongs to the organization are sent to this provider when they sign in; it then shows no button of its own."
              data-testid="social-organization"
              {...form.register('organization_id')}
            />
            <TextField label="Scopes" hint="Separated by spaces." error={err('scope')} data-testid="social-scope" {...form.register('scope')} />
            <TextArea
              label="Data mapper"
              rows={6}
              spellCheck={false}
              hint="Jsonnet (base64://…) or a URL, as Ory stores it. It is stored, not run: sign-in applies Ory's default claims mapping (see the preview below)."
              error={err('mapper_url')}
              data-testid="social-mapper"
              {...form.register('mapper_url')}
            />
          </>
        );
      }}
    </SettingsForm>
  );
}

const SAMPLE_CLAIMS = JSON.stringify(
  { sub: '248289761001', email: 'jane@example.com', email_verified: true, name: 'Jane Doe', given_name: 'Jane', family_name: 'Doe', picture: 'https://example.com/jane.png' },
  null,
  2,
);

/** Sample claims as the provider would give them: a JSON object, or what to fix. */
function parseClaims(text: string): { claims: Record<string, unknown> } | { error: string } {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { error: 'The claims must be a JSON object, such as {"email": "jane@example.com"}.' };
    return { claims: parsed as Record<string, unknown> };
  } catch (err) {
    return { error: `The claims are not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/**
 * The mapper preview: sample claims in, the traits a new identity would get out. Jsonnet mappers are not run
 * here (no maintained Jsonnet implementation installs from the registry without downloading more), so the
 * preview is exactly what sign-in does: Ory's default claims mapping onto the identity schema's traits.
 */
function MapperPreview({ projectId }: { projectId: string }) {
  const schemas = trpc.identities.schemas.useQuery({ projectId });
  const [text, setText] = useState(SAMPLE_CLAIMS);
  const [schemaId, setSchemaId] = useState('');
  return (
    <Card title="Mapper preview" testId="social-mapper-preview">
      <p className="hint" data-testid="social-mapper-note">
        This server stores the data mapper but does not run Jsonnet: sign-in maps the provider's claims with Ory's default claims mapping (email, name,
        given and family name, username, picture, phone, locale) onto the identity schema's traits. The preview shows that mapping.
      </p>
      <QueryView query={schemas} errorTitle="The identity schemas could not be loaded" isEmpty={(list) => list.length === 0} empty={{ title: 'No identity schema', description: 'Add an identity schema to preview traits.' }}>
        {(list) => {
          const chosen = list.find((x) => x.id === schemaId) ?? list[0]!;
          const parsed = parseClaims(text);
          const traits = 'claims' in parsed ? previewClaimsMapping(parsed.claims, chosen.schema) : null;
          return (
            <>
              {list.length > 1 && (
                <Select label="Identity schema" options={list.map((x) => ({ value: x.id, label: x.id }))} value={chosen.id} onChange={(e) => setSchemaId(e.target.value)} data-testid="social-preview-schema" />
              )}
              <TextArea
                label="Sample claims"
                rows={9}
                spellCheck={false}
                value={text}
                onChange={(e) => setText(e.target.value)}
                error={'error' in parsed ? parsed.error : undefined}
                data-testid="social-preview-claims"
              />
              <h3>Traits of the new identity</h3>
              <pre className="code-block" tabIndex={0} aria-label="Traits of the new identity" data-testid="social-preview-traits">
                {traits ? JSON.stringify(traits, null, 2) : '—'}
              </pre>
            </>
          );
        }}
      </QueryView>
    </Card>
  );
}

/**
 * /projects/{project}/social-signin/{provider}: one provider's client settings and data mapper, the redirect
 * URI to register at the provider, the method's switch and deletion. Opened with `?kind=` for a provider not
 * configured yet, it adds one of that kind.
 */
export default function SocialProviderPage() {
  const project = useProject();
  const projectId = project.id;
  const { provider: id = '' } = useParams<{ provider: string }>();
  const newKind = new URLSearchParams(useSearch()).get('kind');
  const [, navigate] = useLocation();
  const provider = trpc.socialProviders.get.useQuery({ projectId, id }, { retry: false });
  const list = trpc.socialProviders.list.useQuery({ projectId });
  const endpoint = trpc.projects.endpoint.useQuery({ projectId }, QUERY_RULES.project);
  const [deleting, setDeleting] = useState(false);
  const remove = trpc.socialProviders.delete.useMutation({
    onSuccess: () => {
      toast.success('Provider deleted');
      navigate(ROUTES.socialSignin.build({ project: projectId }), { replace: true });
    },
  });

  const missing = errorCode(provider.error) === 'NOT_FOUND';
  const adding = missing && newKind !== null && socialProviderKind(newKind) !== undefined;
  const kind = provider.data?.provider ?? (adding ? newKind! : '');
  const described = socialProviderKind(kind);
  const title = provider.data?.label || described?.label || id;
  const redirectUri = endpoint.data?.apiUrl ? socialRedirectUri(endpoint.data.apiUrl, id) : null;

  const body = (current: SocialProviderView | null) => (
    <>
      <PageHeader
        title={current ? title : `Add ${described?.label ?? kind}`}
        description={
          <span className="provider-name">
            <ProviderLogo kind={kind} label={described?.label ?? kind} size={20} /> {described?.label ?? kind} · ID <code>{id}</code>
          </span>
        }
        actions={
          current ? (
            <Button variant="danger" onClick={() => setDeleting(true)} data-testid="social-provider-delete">
              Delete provider
            </Button>
          ) : undefined
        }
      />
      <Card title="Redirect URI" testId="social-redirect-card">
        <p className="hint">Register this URI at the provider as the client's redirect (callback) URI.</p>
        {redirectUri ? <CopyValue value={redirectUri} label="Copy the redirect URI" testId="social-redirect-uri" /> : <p>This deployment has no project API configured.</p>}
      </Card>
      {list.data && (
        <Card>
          <SocialSignInSwitch projectId={projectId} enabled={list.data.enabled} />
        </Card>
      )}
      <Card title="Client">
        <ProviderForm key={`${id}:${current ? 'edit' : 'new'}`} projectId={projectId} id={id} kind={kind} provider={current} />
      </Card>
      <MapperPreview projectId={projectId} />
    </>
  );

  return (
    <div className="page page-narrow" data-testid="social-provider-page">
      {adding ? (
        body(null)
      ) : missing ? (
        <>
          <PageHeader title="Social provider" />
          <EmptyState title="No such provider" description={`This project has no social sign-in provider "${id}". Pick a kind on the social sign-in page to add one.`} testId="social-provider-missing" />
        </>
      ) : (
        <QueryView query={provider} skeleton="form" errorTitle="The provider could not be loaded">
          {(loaded) => body(loaded)}
        </QueryView>
      )}
      <ConfirmDialog
        open={deleting}
        title={`Delete ${title}?`}
        message="Users who signed up with this provider can no longer sign in with it; their accounts stay. This cannot be undone."
        confirmLabel="Delete provider"
        busy={remove.isPending}
        error={remove.error ? (errorText(remove.error) ?? 'Could not delete the provider.') : undefined}
        onConfirm={() => remove.mutate({ projectId, id })}
        onClose={() => (setDeleting(false), remove.reset())}
        testId="delete-social-provider-dialog"
      />
    </div>
  );
}
