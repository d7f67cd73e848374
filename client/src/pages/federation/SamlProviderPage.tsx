import { useState } from 'react';
import toast from 'react-hot-toast';
import { useLocation, useParams, useSearch } from 'wouter';
import { z } from 'zod';
import { samlAcsUrl, samlMetadataUrl } from '../../../../shared/domain/saml-providers';
import { formatDate } from '../../../../shared/domain/format';
import { METADATA_MAX_CHARS, type SamlMetadataSummary, type SamlProviderView } from '../../../../shared/schemas/saml-providers';
import { Button } from '../../components/Button';
import { Card, EmptyState, PageHeader } from '../../components/Card';
import { CopyValue } from '../../components/CopyButton';
import { ConfirmDialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { SettingsForm } from '../../components/SettingsForm';
import { Select, TextArea, TextField } from '../../components/TextField';
import { quotaFailure, UpgradePrompt } from '../../components/UpgradePrompt';
import { errorCode, errorText } from '../../lib/errors';
import { QUERY_RULES } from '../../lib/query-client';
import { ROUTES } from '../../routes';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';

const attribute = (label: string) => z.string().trim().max(256, { error: `${label} has at most 256 characters` });

/** The form's fields, as text: the metadata is new XML, or the URL to read it from (empty on an edit: keep it). */
const samlFormSchema = z.object({
  label: z.string().trim().max(64, { error: 'The label has at most 64 characters' }),
  idp_metadata_url: z
    .string()
    .trim()
    .max(2048, { error: 'The metadata URL has at most 2048 characters' })
    .refine((v) => v === '' || /^https?:\/\/[^\s]+$/.test(v), { error: 'The metadata URL must be an http(s) URL' }),
  idp_metadata_xml: z
    .string()
    .max(METADATA_MAX_CHARS, { error: 'The metadata has at most 256 KiB' })
    .refine((v) => v.trim() === '' || v.trim().startsWith('<'), { error: 'The metadata must be XML (an EntityDescriptor)' }),
  email: attribute('The email attribute'),
  first_name: attribute('The first name attribute'),
  last_name: attribute('The last name attribute'),
  name: attribute('The name attribute'),
  organization_id: z.string(),
});
type SamlForm = z.infer<typeof samlFormSchema>;

const valuesOf = (p: SamlProviderView | null): SamlForm => ({
  label: p?.label ?? '',
  idp_metadata_url: p?.idp_metadata_url ?? '',
  idp_metadata_xml: '',
  email: p?.attributes_map.email ?? '',
  first_name: p?.attributes_map.first_name ?? '',
  last_name: p?.attributes_map.last_name ?? '',
  name: p?.attributes_map.name ?? '',
  organization_id: p?.organization_id ?? '',
});

/** What the metadata says: the summary the console shows of stored or freshly read metadata. */
function MetadataSummary({ summary, testId }: { summary: SamlMetadataSummary; testId: string }) {
  const expires = new Date(summary.certificate_expiry);
  return (
    <dl className="facts" data-testid={testId}>
      <dt>Entity ID</dt>
      <dd>
        <code data-testid={`${testId}-entity-id`}>{summary.entity_id}</code>
      </dd>
      <dt>Single sign-on URL</dt>
      <dd>
        <code>{summary.sso_url}</code>
      </dd>
      <dt>Signing certificate expires</dt>
      <dd data-testid={`${testId}-expiry`}>
        {formatDate(summary.certificate_expiry)}
        {expires.getTime() < Date.now() ? ' (expired: sign-in fails until the metadata is renewed)' : ''}
      </dd>
    </dl>
  );
}

function ProviderForm({ projectId, id, provider, onRefused }: { projectId: string; id: string; provider: SamlProviderView | null; onRefused: () => void }) {
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const set = trpc.samlProviders.set.useMutation({ onSuccess: (saved) => utils.samlProviders.get.setData({ projectId, id }, saved) });
  const parse = trpc.samlProviders.parseMetadata.useMutation();
  const [fileError, setFileError] = useState<string | undefined>();
  const creating = provider === null;
  const organizations = trpc.organizations.list.useQuery({ projectId, pageSize: 100 }, { retry: false });
  const organizationOptions = [
    { value: '', label: 'None: a button for everyone' },
    ...(organizations.data?.organizations ?? []).map((o) => ({ value: o.id, label: `${o.label} (${o.domains.join(', ') || 'no domains'})` })),
  ];
  if (provider?.organization_id && !organizationOptions.some((o) => o.value === provider.organization_id)) {
    organizationOptions.push({ value: provider.organization_id, label: provider.organization_id });
  }
  return (
    <SettingsForm
      schema={samlFormSchema}
      values={valuesOf(provider)}
      kind={creating ? 'create' : 'edit'}
      testId="saml-provider-form"
      submitLabel={creating ? 'Add provider' : 'Save changes'}
      errorContext={creating ? 'Could not add the provider' : 'Could not save the provider'}
      reportsError={(error) => {
        if (!quotaFailure(error)) return false;
        onRefused();
        return true;
      }}
      canSave={(v) => !creating || v.idp_metadata_xml.trim() !== '' || v.idp_metadata_url !== ''}
      onSave={(changes, all) => {
        const xml = all.idp_metadata_xml.trim();
        const metadata = xml
          ? { idp_metadata_xml: xml }
          : all.idp_metadata_url && (creating || changes.idp_metadata_url !== undefined)
            ? { idp_metadata_url: all.idp_metadata_url }
            : {};
        return set.mutateAsync({
          projectId,
          id,
          create: creating,
          label: all.label,
          ...metadata,
          attributes_map: { email: all.email, first_name: all.first_name, last_name: all.last_name, name: all.name },
          organization_id: all.organization_id,
        });
      }}
      onSaved={() => {
        toast.success(creating ? 'Provider added' : 'Provider saved');
        if (creating) navigate(ROUTES.samlProvider.build({ project: projectId, provider: id }), { replace: true });
      }}
    >
      {(form) => {
        const err = (k: keyof SamlForm) => form.formState.errors[k]?.message;
        const readMetadata = () => {
          const xml = form.getValues('idp_metadata_xml').trim();
          const url = form.getValues('idp_metadata_url').trim();
          if (!xml && !url) return;
          parse.mutate(xml ? { projectId, xml } : { projectId, url });
        };
        const onFile = async (file: File | undefined) => {
          setFileError(undefined);
          if (!file) return;
          if (file.size > METADATA_MAX_CHARS) return setFileError('The metadata file is larger than 256 KiB.');
          const text = await file.text();
          form.setValue('idp_metadata_xml', text, { shouldDirty: true, shouldValidate: true });
          parse.mutate({ projectId, xml: text.trim() });
        };
        return (
          <>
            <TextField label="Label" hint="The name on the sign-in button; the ID when empty." error={err('label')} data-testid="saml-label" {...form.register('label')} />
            <fieldset className="schema-fieldset">
              <legend>Identity provider metadata</legend>
              <TextField
                label="Metadata URL"
                hint="Where the identity provider publishes its metadata; read when you save. URLs on this machine only; for an identity provider elsewhere, upload its metadata."
                error={err('idp_metadata_url')}
                autoComplete="off"
                data-testid="saml-metadata-url"
                {...form.register('idp_metadata_url')}
              />
              <label className="field">
                <span className="field-label">Metadata file</span>
                <input type="file" accept=".xml,application/xml,text/xml,application/samlmetadata+xml" onChange={(e) => void onFile(e.target.files?.[0])} data-testid="saml-metadata-file" />
              </label>
              {fileError && (
                <p className="field-error" role="alert">
                  {fileError}
                </p>
              )}
              <TextArea
                label="Metadata XML"
                rows={5}
                spellCheck={false}
                hint={creating ? 'Or paste the metadata here.' : 'Empty keeps the stored metadata; paste or upload new metadata to replace it.'}
                error={err('idp_metadata_xml')}
                data-testid="saml-metadata-xml"
                {...form.register('idp_metadata_xml')}
              />
              <div>
                <Button onClick={readMetadata} busy={parse.isPending} data-testid="saml-metadata-read">
                  Read metadata
                </Button>
              </div>
              {parse.error && (
                <p className="field-error" role="alert" data-testid="saml-metadata-error">
                  {errorText(parse.error) ?? 'The metadata could not be read.'}
                </p>
              )}
              {parse.data ? (
                <MetadataSummary summary={parse.data} testId="saml-metadata-preview" />
              ) : provider?.metadata ? (
                <MetadataSummary summary={provider.metadata} testId="saml-metadata-stored" />
              ) : null}
            </fieldset>
            <fieldset className="schema-fieldset">
              <legend>Attribute mapping</legend>
              <p className="hint">The assertion attribute that holds each trait. Empty: the usual names (email or mail, givenName, sn, displayName and their URN forms); the email falls back to the name ID.</p>
              <TextField label="Email" error={err('email')} autoComplete="off" data-testid="saml-attr-email" {...form.register('email')} />
              <TextField label="First name" error={err('first_name')} autoComplete="off" {...form.register('first_name')} />
              <TextField label="Last name" error={err('last_name')} autoComplete="off" {...form.register('last_name')} />
              <TextField label="Full name" error={err('name')} autoComplete="off" {...form.register('name')} />
            </fieldset>
            <Select
              label="Organization"
              options={organizationOptions}
              hint="Users whose email domain belongs to the organization are sent to this provider when they sign in; it then shows no button of its own."
              data-testid="saml-organization"
              {...form.register('organization_id')}
            />
          </>
        );
      }}
    </SettingsForm>
  );
}

/**
 * /projects/{project}/saml/{provider}: the service provider's metadata and ACS URLs to give the identity
 * provider, its metadata (uploaded, pasted or read from a URL) with what it says, the attribute mapping, the
 * organization it signs in, and deletion. Opened with `?new=1` for an ID not configured yet, it adds one.
 */
export default function SamlProviderPage() {
  const project = useProject();
  const projectId = project.id;
  const { provider: id = '' } = useParams<{ provider: string }>();
  const adding = new URLSearchParams(useSearch()).get('new') === '1';
  const [, navigate] = useLocation();
  const provider = trpc.samlProviders.get.useQuery({ projectId, id }, { retry: false });
  const quota = trpc.quota.get.useQuery({ projectId, feature: 'saml_sp' });
  const endpoint = trpc.projects.endpoint.useQuery({ projectId }, QUERY_RULES.project);
  const [deleting, setDeleting] = useState(false);
  const [refused, setRefused] = useState(false);
  const remove = trpc.samlProviders.delete.useMutation({
    onSuccess: () => {
      toast.success('Provider deleted');
      navigate(ROUTES.saml.build({ project: projectId }), { replace: true });
    },
  });

  const missing = errorCode(provider.error) === 'NOT_FOUND';
  const creating = missing && adding;
  const title = provider.data?.label || id;
  const apiUrl = endpoint.data?.apiUrl;

  const body = (current: SamlProviderView | null) => (
    <>
      <PageHeader
        title={current ? title : `Add SAML provider ${id}`}
        description={
          <span>
            SAML 2.0 · ID <code>{id}</code>
          </span>
        }
        actions={
          current ? (
            <Button variant="danger" onClick={() => setDeleting(true)} data-testid="saml-provider-delete">
              Delete provider
            </Button>
          ) : undefined
        }
      />
      {(refused || (!current && quota.data?.feature_available === false)) && <UpgradePrompt feature="saml_sp" units={1} workspaceId={project.workspace_id} projectId={projectId} />}
      <Card title="Service provider" testId="saml-sp-card">
        <p className="hint">
          Give the identity provider this metadata URL, or the entity ID and ACS URL below. The metadata carries the project's certificate, which
          signs its sign-in requests and encrypts assertions to it.
        </p>
        {apiUrl ? (
          <>
            <dl className="detail">
              <dt>Metadata URL and entity ID</dt>
              <dd>
                <CopyValue value={samlMetadataUrl(apiUrl, id)} label="Copy the metadata URL" testId="saml-sp-metadata-url" />
              </dd>
              <dt>Assertion consumer service (ACS) URL</dt>
              <dd>
                <CopyValue value={samlAcsUrl(apiUrl, id)} label="Copy the ACS URL" testId="saml-acs-url" />
              </dd>
            </dl>
            <a className="link" href={samlMetadataUrl(apiUrl, id)} target="_blank" rel="noreferrer noopener" data-testid="saml-sp-metadata-open">
              Open the metadata (XML, with the certificate)
            </a>
          </>
        ) : (
          <p>This deployment has no project API configured.</p>
        )}
      </Card>
      <Card title="Identity provider">
        <ProviderForm key={`${id}:${current ? 'edit' : 'new'}`} projectId={projectId} id={id} provider={current} onRefused={() => setRefused(true)} />
      </Card>
    </>
  );

  return (
    <div className="page page-narrow" data-testid="saml-provider-page">
      {creating ? (
        body(null)
      ) : missing ? (
        <>
          <PageHeader title="SAML provider" />
          <EmptyState title="No such provider" description={`This project has no SAML provider "${id}". Add one on the SAML page.`} testId="saml-provider-missing" />
        </>
      ) : (
        <QueryView query={provider} skeleton="form" errorTitle="The provider could not be loaded">
          {(loaded) => body(loaded)}
        </QueryView>
      )}
      <ConfirmDialog
        open={deleting}
        title={`Delete ${title}?`}
        message="Users who signed in with this provider can no longer sign in with it; their accounts stay. This cannot be undone."
        confirmLabel="Delete provider"
        busy={remove.isPending}
        error={remove.error ? (errorText(remove.error) ?? 'Could not delete the provider.') : undefined}
        onConfirm={() => remove.mutate({ projectId, id })}
        onClose={() => (setDeleting(false), remove.reset())}
        testId="delete-saml-provider-dialog"
      />
    </div>
  );
}
