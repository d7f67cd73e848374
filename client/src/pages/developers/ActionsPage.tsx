import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { formatDateTime } from '../../../../shared/domain/format';
import { HOOK_AUTH_METHODS, HOOK_FLOWS, HOOK_HTTP_METHODS, hookInput, type HookInput, type HookView } from '../../../../shared/schemas/actions';
import { Button } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Switch } from '../../components/Switch';
import { Table } from '../../components/Table';
import { Select, TextArea, TextField } from '../../components/TextField';
import { errorText } from '../../lib/errors';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';

type AuthType = 'none' | 'basic_auth' | 'api_key';
interface Draft {
  key?: string;
  flow: HookInput['flow'];
  timing: HookInput['timing'];
  method: string;
  url: string;
  httpMethod: HookInput['httpMethod'];
  body: string;
  authType: AuthType;
  user: string;
  password: string;
  keyName: string;
  keyValue: string;
  keyIn: 'header' | 'cookie';
  hasSecret: boolean;
  canInterrupt: boolean;
  ignoreResponse: boolean;
}

const FLOW_LABEL: Record<HookInput['flow'], string> = { registration: 'Registration', login: 'Login', settings: 'Settings', recovery: 'Recovery', verification: 'Verification' };
const ALL_METHODS = '';

const blank = (): Draft => ({
  flow: 'registration',
  timing: 'after',
  method: 'password',
  url: '',
  httpMethod: 'POST',
  body: '',
  authType: 'none',
  user: '',
  password: '',
  keyName: '',
  keyValue: '',
  keyIn: 'header',
  hasSecret: false,
  canInterrupt: false,
  ignoreResponse: false,
});

const draftOf = (h: HookView): Draft => ({
  key: h.key,
  flow: h.flow,
  timing: h.timing,
  method: h.method ?? ALL_METHODS,
  url: h.url,
  httpMethod: (HOOK_HTTP_METHODS as readonly string[]).includes(h.httpMethod) ? (h.httpMethod as HookInput['httpMethod']) : 'POST',
  body: h.body,
  authType: h.auth.type,
  user: h.auth.user ?? '',
  password: '',
  keyName: h.auth.name ?? '',
  keyValue: '',
  keyIn: h.auth.in ?? 'header',
  hasSecret: h.auth.hasSecret,
  canInterrupt: h.canInterrupt,
  ignoreResponse: h.ignoreResponse,
});

/** A stored hook as the setter takes it back (secrets left out are kept by the BFF). */
const inputOf = (h: HookView): HookInput => ({
  key: h.key,
  flow: h.flow,
  timing: h.timing,
  method: h.timing === 'before' || !h.method ? null : (h.method as HookInput['method']),
  url: h.url,
  httpMethod: (HOOK_HTTP_METHODS as readonly string[]).includes(h.httpMethod) ? (h.httpMethod as HookInput['httpMethod']) : 'POST',
  body: h.body,
  auth: h.auth.type === 'basic_auth' ? { type: 'basic_auth', user: h.auth.user ?? '' } : h.auth.type === 'api_key' ? { type: 'api_key', name: h.auth.name ?? '', in: h.auth.in ?? 'header' } : { type: 'none' },
  canInterrupt: h.canInterrupt,
  ignoreResponse: h.ignoreResponse,
});

function candidate(d: Draft): unknown {
  return {
    ...(d.key ? { key: d.key } : {}),
    flow: d.flow,
    timing: d.timing,
    method: d.timing === 'before' || d.method === ALL_METHODS ? null : d.method,
    url: d.url,
    httpMethod: d.httpMethod,
    body: d.body.trim(),
    auth:
      d.authType === 'basic_auth'
        ? { type: 'basic_auth', user: d.user, ...(d.password ? { password: d.password } : {}) }
        : d.authType === 'api_key'
          ? { type: 'api_key', name: d.keyName, in: d.keyIn, ...(d.keyValue ? { value: d.keyValue } : {}) }
          : { type: 'none' },
    canInterrupt: d.canInterrupt,
    ignoreResponse: d.ignoreResponse,
  };
}

const whenOf = (h: { timing: string; method: string | null }) => (h.timing === 'before' ? 'Before' : h.method ? `After (${h.method})` : 'After (every method)');

/** /projects/{project}/developers/actions: the project's web hooks before and after each identity flow, and the log of their calls. */
export default function ActionsPage() {
  const project = useProject();
  const projectId = project.id;
  const actions = trpc.actions.get.useQuery({ projectId });
  const set = trpc.actions.set.useMutation();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [doomed, setDoomed] = useState<HookView | null>(null);

  const save = async (hooks: HookInput[]) => set.mutateAsync({ projectId, ...(actions.data ? { revisionId: actions.data.revisionId } : {}), hooks });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft || !actions.data) return;
    const parsed = hookInput.safeParse(candidate(draft));
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path.filter((p) => p !== 'auth').join('.') || 'form';
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    if (draft.authType === 'basic_auth' && !draft.password && !draft.hasSecret) return setErrors({ password: 'Enter the password.' });
    if (draft.authType === 'api_key' && !draft.keyValue && !draft.hasSecret) return setErrors({ value: 'Enter the API key value.' });
    const rest = actions.data.hooks.filter((h) => h.key !== draft.key).map(inputOf);
    try {
      await save(draft.key ? actions.data.hooks.map((h) => (h.key === draft.key ? parsed.data : inputOf(h))) : [...rest, parsed.data]);
      toast.success(draft.key ? 'The hook was saved.' : 'The hook was added.');
      setDraft(null);
    } catch (error) {
      setErrors({ form: errorText(error) ?? 'The hook could not be saved.' });
    }
  };

  const open = (d: Draft) => {
    setErrors({});
    set.reset();
    setDraft(d);
  };
  const update = (patch: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...patch } : d));

  return (
    <div className="page" data-testid="actions-page">
      <PageHeader title="Actions" description="Web hooks your project calls before or after registration, login, settings, recovery and verification." />
      <Card
        title="Web hooks"
        testId="actions-card"
        actions={
          <Button variant="primary" onClick={() => open(blank())} disabled={!actions.data} data-testid="action-new">
            New hook
          </Button>
        }
      >
        <p className="card-text">
          Each hook receives the flow, the identity and the request as JSON. A hook that may interrupt can stop the flow by answering 4xx with Ory's{' '}
          <code>{'{"messages":[{"instance_ptr":"#/traits/email","messages":[{"id":…,"text":…,"type":"error"}]}]}'}</code>; its messages appear in the form.
          The local stack calls hooks on this machine only, and sends the context itself instead of evaluating a Jsonnet body.
        </p>
        <QueryView
          query={actions}
          skeleton="table"
          errorTitle="The hooks could not be loaded"
          isEmpty={(a) => a.hooks.length === 0}
          empty={{ title: 'No hooks yet', description: 'Add a hook to call your service when someone signs up or signs in.', testId: 'actions-empty' }}
        >
          {(a) =>
            HOOK_FLOWS.filter((flow) => a.hooks.some((h) => h.flow === flow)).map((flow) => (
              <section key={flow} className="stack" data-testid={`actions-flow-${flow}`}>
                <h3 className="card-subtitle">{FLOW_LABEL[flow]}</h3>
                <Table
                  caption={`${FLOW_LABEL[flow]} hooks`}
                  testId={`actions-table-${flow}`}
                  rows={a.hooks.filter((h) => h.flow === flow)}
                  rowKey={(h) => h.key}
                  columns={[
                    { key: 'when', header: 'When', render: (h) => whenOf(h) },
                    { key: 'url', header: 'URL', className: 'col-name', render: (h) => <span data-testid="action-url">{`${h.httpMethod} ${h.url}`}</span> },
                    { key: 'auth', header: 'Auth', render: (h) => (h.auth.type === 'none' ? 'None' : h.auth.type) },
                    { key: 'response', header: 'Response', render: (h) => (h.ignoreResponse ? 'Ignored' : h.canInterrupt ? 'Can interrupt' : 'Awaited') },
                    {
                      key: 'actions',
                      header: 'Actions',
                      render: (h) => (
                        <div className="row-actions">
                          <Button onClick={() => open(draftOf(h))} data-testid="action-edit">
                            Edit
                          </Button>
                          <Button variant="danger" onClick={() => setDoomed(h)} data-testid="action-delete">
                            Delete
                          </Button>
                        </div>
                      ),
                    },
                  ]}
                />
              </section>
            ))
          }
        </QueryView>
      </Card>
      <CallLog projectId={projectId} />

      <Dialog
        open={draft !== null}
        title={draft?.key ? 'Edit hook' : 'New hook'}
        onClose={() => setDraft(null)}
        testId="action-dialog"
        footer={
          <Button type="submit" variant="primary" form="action-form" busy={set.isPending} data-testid="action-save">
            Save hook
          </Button>
        }
      >
        {draft && (
          <form id="action-form" className="stack" onSubmit={(e) => void submit(e)} noValidate data-testid="action-form">
            {errors.form && (
              <p className="form-error" role="alert" data-testid="action-form-error">
                {errors.form}
              </p>
            )}
            <Select label="Flow" value={draft.flow} options={HOOK_FLOWS.map((f) => ({ value: f, label: FLOW_LABEL[f] }))} onChange={(e) => update({ flow: e.target.value as Draft['flow'] })} error={errors.flow} data-testid="action-flow" />
            <Select label="When" value={draft.timing} options={[{ value: 'before', label: 'Before the flow starts' }, { value: 'after', label: 'After the flow succeeds' }]} onChange={(e) => update({ timing: e.target.value as Draft['timing'] })} error={errors.timing} data-testid="action-timing" />
            {draft.timing === 'after' && (
              <Select
                label="Method"
                value={draft.method}
                options={[{ value: ALL_METHODS, label: 'Every method' }, ...HOOK_AUTH_METHODS.map((m) => ({ value: m, label: m }))]}
                onChange={(e) => update({ method: e.target.value })}
                error={errors.method}
                data-testid="action-method"
              />
            )}
            <TextField label="URL" placeholder="https://example.com/hooks/sign-up" value={draft.url} onChange={(e) => update({ url: e.target.value })} error={errors.url} hint="Locally, only URLs on this machine (localhost) are called." data-testid="action-url-input" />
            <Select label="HTTP method" value={draft.httpMethod} options={HOOK_HTTP_METHODS.map((m) => ({ value: m, label: m }))} onChange={(e) => update({ httpMethod: e.target.value as Draft['httpMethod'] })} data-testid="action-http-method" />
            <TextArea label="Body (Jsonnet URI)" placeholder="base64://ZnVuY3Rpb24oY3R4KSB7IGlkZW50aXR5OiBjdHguaWRlbnRpdHkgfQ==" value={draft.body} onChange={(e) => update({ body: e.target.value })} error={errors.body} hint="Ory evaluates this Jsonnet template for the body; the local stack does not, and sends the whole context instead." data-testid="action-body" />
            <Select
              label="Auth"
              value={draft.authType}
              options={[{ value: 'none', label: 'None' }, { value: 'basic_auth', label: 'Basic auth' }, { value: 'api_key', label: 'API key' }]}
              onChange={(e) => update({ authType: e.target.value as AuthType, hasSecret: false })}
              data-testid="action-auth"
            />
            {draft.authType === 'basic_auth' && (
              <>
                <TextField label="User" value={draft.user} onChange={(e) => update({ user: e.target.value })} error={errors.user} autoComplete="off" data-testid="action-user" />
                <TextField label="Password" type="password" value={draft.password} onChange={(e) => update({ password: e.target.value })} error={errors.password} autoComplete="new-password" hint={draft.hasSecret ? 'Leave empty to keep the current password.' : undefined} data-testid="action-password" />
              </>
            )}
            {draft.authType === 'api_key' && (
              <>
                <TextField label="Key name" placeholder="X-Api-Key" value={draft.keyName} onChange={(e) => update({ keyName: e.target.value })} error={errors.name} autoComplete="off" data-testid="action-key-name" />
                <TextField label="Key value" type="password" value={draft.keyValue} onChange={(e) => update({ keyValue: e.target.value })} error={errors.value} autoComplete="new-password" hint={draft.hasSecret ? 'Leave empty to keep the current value.' : undefined} data-testid="action-key-value" />
                <Select label="Sent in" value={draft.keyIn} options={[{ value: 'header', label: 'A header' }, { value: 'cookie', label: 'A cookie' }]} onChange={(e) => update({ keyIn: e.target.value as Draft['keyIn'] })} data-testid="action-key-in" />
              </>
            )}
            <Switch label="Can interrupt the flow" description="A 4xx answer with Ory's messages stops the flow and shows them." checked={draft.canInterrupt} onCheckedChange={(v) => update({ canInterrupt: v })} testId="action-can-interrupt" />
            <Switch label="Ignore the response" description="Called without waiting; the answer never matters." checked={draft.ignoreResponse} onCheckedChange={(v) => update({ ignoreResponse: v })} testId="action-ignore" />
            {errors.ignoreResponse && <p className="field-error">{errors.ignoreResponse}</p>}
          </form>
        )}
      </Dialog>

      <ConfirmDialog
        open={doomed !== null}
        title="Delete hook"
        message={`The project no longer calls ${doomed?.url ?? 'this hook'}.`}
        confirmLabel="Delete hook"
        busy={set.isPending}
        error={set.error && doomed ? (errorText(set.error) ?? 'The hook could not be deleted.') : undefined}
        onConfirm={() =>
          doomed &&
          actions.data &&
          void save(actions.data.hooks.filter((h) => h.key !== doomed.key).map(inputOf)).then(() => setDoomed(null), () => undefined)
        }
        onClose={() => {
          set.reset();
          setDoomed(null);
        }}
        testId="action-delete-dialog"
      />
    </div>
  );
}

function CallLog({ projectId }: { projectId: string }) {
  const [tokens, setTokens] = useState<string[]>([]);
  const pageToken = tokens.at(-1);
  const log = trpc.actions.log.useQuery({ projectId, ...(pageToken ? { pageToken } : {}) }, { placeholderData: (previous) => previous, refetchInterval: 5000 });
  return (
    <Card title="Call log" testId="actions-log">
      <QueryView
        query={log}
        skeleton="table"
        errorTitle="The call log could not be loaded"
        isEmpty={(answer) => answer.calls.length === 0}
        empty={{ title: 'No calls yet', description: 'Sign up or sign in on your project: each hook call is listed here.', testId: 'actions-log-empty' }}
      >
        {(answer) => (
          <>
            <Table
              caption="Hook calls"
              testId="actions-log-table"
              rows={answer.calls}
              rowKey={(c) => c.id}
              columns={[
                { key: 'flow', header: 'Flow', render: (c) => `${FLOW_LABEL[c.flow]} · ${whenOf(c)}` },
                { key: 'url', header: 'URL', className: 'col-name', render: (c) => `${c.http_method} ${c.url}` },
                {
                  key: 'status',
                  header: 'Status',
                  render: (c) => (
                    <span className={`badge ${c.status === 'success' ? 'badge-prod' : 'badge-abandoned'}`} data-testid="call-status">
                      {c.status === 'success' ? 'Success' : c.interrupted ? 'Interrupted' : 'Failed'}
                    </span>
                  ),
                },
                { key: 'code', header: 'Response', render: (c) => (c.response_code === null ? (c.error ?? '—') : c.response_code) },
                { key: 'latency', header: 'Latency', render: (c) => `${c.latency_ms} ms` },
                { key: 'at', header: 'Time', render: (c) => formatDateTime(c.at) },
              ]}
            />
            <div className="pager">
              <Button disabled={tokens.length === 0} onClick={() => setTokens(tokens.slice(0, -1))} data-testid="log-newer">
                Newer
              </Button>
              <Button disabled={!answer.nextPageToken} onClick={() => answer.nextPageToken && setTokens([...tokens, answer.nextPageToken])} data-testid="log-older">
                Older
              </Button>
            </div>
          </>
        )}
      </QueryView>
    </Card>
  );
}
