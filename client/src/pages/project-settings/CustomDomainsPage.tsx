import { useState } from 'react';
import toast from 'react-hot-toast';
import { cnameTarget, customDomainPollInterval, customDomainState } from '../../../../shared/domain/custom-domain';
import { customDomainErrorMessage, CUSTOM_DOMAIN_SUCCESS_MESSAGES } from '../../../../shared/domain/errors';
import { formatDate } from '../../../../shared/domain/format';
import { domainCreateInput, type CustomDomainView } from '../../../../shared/schemas/custom-domains';
import type { CustomDomainState } from '../../../../shared/schemas/enums';
import { ActionForm, useActionForm } from '../../components/ActionForm';
import { Button } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { CopyValue } from '../../components/CopyButton';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Switch } from '../../components/Switch';
import { TextArea, TextField } from '../../components/TextField';
import { quotaFailure, UpgradePrompt } from '../../components/UpgradePrompt';
import { QUERY_RULES } from '../../lib/query-client';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';

const STATE_TEXT: Record<CustomDomainState, string> = {
  pending: 'Pending verification',
  active: 'Active',
  inactive: 'Inactive',
  'not-found': 'Not found',
};
const STATE_BADGE: Record<CustomDomainState, string> = { pending: 'stage', active: 'prod', inactive: 'abandoned', 'not-found': 'abandoned' };

const addSchema = domainCreateInput.pick({ hostname: true });

/** A domain's CNAME record, each part with its copy button, and what the state means for the user. */
function DnsInstructions({ domain, target }: { domain: CustomDomainView; target: string }) {
  const state = customDomainState(domain);
  const host = domain.hostname ?? '';
  return (
    <div className="inline-form" data-testid={`domain-dns-${host}`}>
      {state !== 'active' && (
        <p className="hint">
          At your DNS provider, add this CNAME record. The console checks it every 30 seconds while the domain is pending; it turns active once the
          record answers.
        </p>
      )}
      <dl className="dns-record">
        <div>
          <dt>Type</dt>
          <dd>
            <code>CNAME</code>
          </dd>
        </div>
        <div>
          <dt>Name</dt>
          <dd>
            <CopyValue value={host} label={`Copy the record name of ${host}`} testId={`domain-record-name-${host}`} />
          </dd>
        </div>
        <div>
          <dt>Value</dt>
          <dd>
            <CopyValue value={target} label={`Copy the record value of ${host}`} testId={`domain-record-value-${host}`} />
          </dd>
        </div>
      </dl>
      {domain.verification_errors && domain.verification_errors.length > 0 && (
        <ul className="form-error" data-testid={`domain-errors-${host}`}>
          {domain.verification_errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The settings of one domain besides its host name: CORS and where cookies are set. */
function SettingsDialog({ domain, projectId, onClose }: { domain: CustomDomainView | null; projectId: string; onClose: () => void }) {
  const [corsEnabled, setCorsEnabled] = useState(domain?.cors_enabled ?? false);
  const [origins, setOrigins] = useState((domain?.cors_allowed_origins ?? []).join('\n'));
  const [cookieDomain, setCookieDomain] = useState(domain?.cookie_domain ?? '');
  const update = trpc.domains.update.useMutation({
    onSuccess: () => {
      toast.success(CUSTOM_DOMAIN_SUCCESS_MESSAGES.update);
      onClose();
    },
    onError: (error) => toast.error(customDomainErrorMessage('update', error)),
  });
  if (!domain) return null;
  const save = () =>
    update.mutate({
      projectId,
      domainId: domain.id!,
      corsEnabled,
      corsAllowedOrigins: origins
        .split(/[\s,]+/)
        .map((o) => o.trim())
        .filter(Boolean),
      cookieDomain: cookieDomain.trim(),
    });
  return (
    <Dialog
      open
      onClose={onClose}
      title={`Settings of ${domain.hostname ?? 'the domain'}`}
      testId="domain-settings-dialog"
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" busy={update.isPending} onClick={save} data-testid="domain-settings-save">
            Save settings
          </Button>
        </>
      }
    >
      <div className="inline-form">
        <Switch label="Allow cross-origin requests (CORS)" checked={corsEnabled} onCheckedChange={setCorsEnabled} testId="domain-cors-enabled" />
        <TextArea
          label="Allowed origins"
          hint="One per line, such as https://app.example.com."
          value={origins}
          onChange={(e) => setOrigins(e.target.value)}
          rows={3}
          data-testid="domain-cors-origins"
        />
        <TextField
          label="Cookie domain (optional)"
          hint="The domain session cookies are set for, such as example.com."
          value={cookieDomain}
          onChange={(e) => setCookieDomain(e.target.value)}
          data-testid="domain-cookie-domain"
        />
      </div>
    </Dialog>
  );
}

/**
 * /projects/{project}/custom-domains: the project's own host names with their state (spec §4), the CNAME
 * record each needs, and add, settings and remove with the spec §8 messages. While any domain is pending the
 * list is fetched again every 30 s; otherwise it is cached as spec §7 says.
 */
export default function CustomDomainsPage() {
  const project = useProject();
  const projectId = project.id;
  const domains = trpc.domains.list.useQuery(
    { projectId },
    { ...QUERY_RULES.customDomains, refetchInterval: (query) => customDomainPollInterval(query.state.data) },
  );
  const workspaceId = project.workspace_id ?? null;
  const quota = trpc.quota.get.useQuery({ projectId, feature: 'custom_domains' });
  const [adding, setAdding] = useState(false);
  const [refused, setRefused] = useState(false);
  const [removing, setRemoving] = useState<CustomDomainView | null>(null);
  const [editing, setEditing] = useState<CustomDomainView | null>(null);
  const create = trpc.domains.create.useMutation();
  const remove = trpc.domains.delete.useMutation({
    onSuccess: () => {
      toast.success(CUSTOM_DOMAIN_SUCCESS_MESSAGES.remove);
      setRemoving(null);
    },
    onError: (error) => {
      toast.error(customDomainErrorMessage('remove', error));
      setRemoving(null);
    },
  });
  const action = useActionForm({
    schema: addSchema,
    defaultValues: { hostname: '' },
    onSubmit: ({ hostname }) => create.mutateAsync({ projectId, hostname }),
    onDone: () => {
      toast.success(CUSTOM_DOMAIN_SUCCESS_MESSAGES.add);
      setAdding(false);
    },
    errorFallback: customDomainErrorMessage('add', null),
    reportsError: (error) => {
      if (quotaFailure(error)) {
        setRefused(true);
        setAdding(false);
        void quota.refetch();
        return true;
      }
      // Spec §8: a 409 and any other refusal are said in their own words, as a toast.
      toast.error(customDomainErrorMessage('add', error));
      return true;
    },
  });
  const closeAdd = () => {
    setAdding(false);
    action.reset();
  };
  const full = quota.data ? !quota.data.can_use_more : false;
  const target = cnameTarget(project.slug);

  const addButton = (
    <Button variant="primary" onClick={() => (full ? setRefused(true) : setAdding(true))} data-testid="domain-add-open">
      Add domain
    </Button>
  );

  return (
    <div className="page" data-testid="custom-domains-page">
      <PageHeader
        title="Custom domains"
        description="Serve this project's hosted pages and APIs from a domain of your own, such as auth.example.com. Point it at the project with a CNAME record."
        actions={addButton}
      />
      {(refused || full) && quota.data && (
        <UpgradePrompt feature="custom_domains" units={quota.data.used + 1} workspaceId={workspaceId} projectId={projectId} />
      )}
      <Card title="Domains" testId="custom-domains-card">
        {domains.isError ? (
          <div className="state state-error" role="alert" data-testid="error-state">
            <h2 className="state-title">Your custom domains could not be loaded</h2>
            <p className="state-text" data-testid="custom-domains-error">
              {customDomainErrorMessage('fetch', domains.error)}
            </p>
            <Button onClick={() => void domains.refetch()} busy={domains.isRefetching} data-testid="retry-button">
              Try again
            </Button>
          </div>
        ) : (
          <QueryView
            query={domains}
            skeleton="table"
            errorTitle="Your custom domains could not be loaded"
            isEmpty={(rows) => rows.length === 0}
            empty={{ title: 'No custom domains yet', description: 'Add a domain of your own so your users sign in on your brand, not on ours.', testId: 'custom-domains-empty' }}
          >
            {(rows) => (
              <ul className="domain-list" data-testid="custom-domains-list">
                {(rows as CustomDomainView[]).map((d) => {
                  const state = customDomainState(d);
                  const host = d.hostname ?? '';
                  return (
                    <li key={d.id} className="domain-item" data-testid={`domain-${host}`}>
                      <div className="domain-head">
                        <h3 className="domain-name">{host}</h3>
                        <span className={`badge badge-${STATE_BADGE[state]}`} data-testid={`domain-state-${host}`}>
                          {STATE_TEXT[state]}
                        </span>
                        <span className="hint">Added {formatDate(d.created_at)}</span>
                        <span className="domain-actions">
                          <Button variant="ghost" onClick={() => setEditing(d)} data-testid={`domain-settings-${host}`}>
                            Settings
                          </Button>
                          <Button variant="ghost" onClick={() => setRemoving(d)} data-testid={`domain-remove-${host}`}>
                            Remove
                          </Button>
                        </span>
                      </div>
                      <DnsInstructions domain={d} target={target} />
                    </li>
                  );
                })}
              </ul>
            )}
          </QueryView>
        )}
      </Card>

      <Dialog
        open={adding}
        onClose={closeAdd}
        title="Add a custom domain"
        testId="domain-add-dialog"
        footer={
          <>
            <Button onClick={closeAdd}>Cancel</Button>
            <Button variant="primary" type="submit" form={action.id} busy={action.busy} data-testid="domain-add-submit">
              Add domain
            </Button>
          </>
        }
      >
        <ActionForm action={action} testId="domain-add-form">
          <TextField
            label="Domain"
            hint="A subdomain you control, such as auth.example.com."
            autoComplete="off"
            spellCheck={false}
            error={action.form.formState.errors.hostname?.message}
            data-testid="domain-hostname"
            required
            {...action.form.register('hostname')}
          />
        </ActionForm>
      </Dialog>

      {editing && <SettingsDialog key={editing.id} domain={editing} projectId={projectId} onClose={() => setEditing(null)} />}

      <ConfirmDialog
        open={removing !== null}
        title="Remove this domain?"
        message={`The project stops answering on ${removing?.hostname ?? ''} at once. Links and sign-ins that use it stop working.`}
        confirmLabel="Remove domain"
        busy={remove.isPending}
        onConfirm={() => removing && remove.mutate({ projectId, domainId: removing.id! })}
        onClose={() => setRemoving(null)}
        testId="domain-remove-dialog"
      />
    </div>
  );
}
