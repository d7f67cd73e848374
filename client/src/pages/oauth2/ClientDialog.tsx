import { useState } from 'react';
import { GRANT_TYPES, type OAuth2ClientView } from '../../../../shared/schemas/oauth2';
import { Button } from '../../components/Button';
import { CopyButton } from '../../components/CopyButton';
import { Dialog } from '../../components/Dialog';
import { Switch } from '../../components/Switch';
import { Select, TextArea, TextField } from '../../components/TextField';
import { errorText } from '../../lib/errors';
import { trpc } from '../../trpc';
import { ClientLifespans, RotatedSecrets } from './ClientExtras';
import { bodyOf, EMPTY_FORM, formOf, keptLifespans, lifespansOf, type ClientForm } from './client-form';

const GRANT_LABELS: Record<(typeof GRANT_TYPES)[number], string> = {
  authorization_code: 'Authorization code (users sign in)',
  refresh_token: 'Refresh token (stay signed in)',
  client_credentials: 'Client credentials (machine to machine)',
  implicit: 'Implicit (legacy browser apps)',
  'urn:ietf:params:oauth:grant-type:device_code': 'Device code (TVs, CLIs)',
  'urn:ietf:params:oauth:grant-type:jwt-bearer': "JWT bearer (a trusted issuer's signed JWTs)",
};

/** The secret of a client, shown once after it is created or rotated. */
export function SecretNotice({ client }: { client: OAuth2ClientView }) {
  return (
    <div className="inline-form" data-testid="oauth2-secret">
      <p className="banner" role="alert">
        This is the only time the client secret is shown. Copy it now and keep it somewhere safe: it cannot be shown again.
      </p>
      <p>
        Client ID: <code data-testid="oauth2-secret-client-id">{client.client_id}</code>
      </p>
      <code className="secret-value" data-testid="oauth2-secret-value">
        {client.client_secret}
      </code>
      <CopyButton value={client.client_secret ?? ''} label="Copy client secret" testId="oauth2-secret-copy" />
    </div>
  );
}

/**
 * Creates a client, or edits one, with Hydra's fields grouped as Hydra groups them. A new client's secret is
 * shown once when it is created.
 */
export function ClientDialog({ projectId, client, onClose }: { projectId: string; client: OAuth2ClientView | null; onClose: () => void }) {
  const editing = client !== null;
  const [form, setForm] = useState<ClientForm>(client ? formOf(client) : EMPTY_FORM);
  const [problem, setProblem] = useState<string | null>(null);
  // The lifespans as last saved (the dialog may have saved new ones): saving the client whole keeps them.
  const [lifespans, setLifespans] = useState(() => (client ? lifespansOf(client) : null));
  const create = trpc.oauth2Clients.create.useMutation();
  const set = trpc.oauth2Clients.set.useMutation({ onSuccess: onClose });
  const mutation = editing ? set : create;
  const created = create.data?.client_secret ? create.data : null;
  const update = <K extends keyof ClientForm>(key: K, value: ClientForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  const submit = () => {
    if (mutation.isPending) return;
    const result = bodyOf(form);
    if ('error' in result) return setProblem(result.error);
    setProblem(null);
    if (client?.client_id) set.mutate({ projectId, clientId: client.client_id, client: { ...result.body, ...keptLifespans(lifespans) } });
    else create.mutate({ projectId, client: result.body });
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title={created ? 'Copy your client secret' : editing ? 'Edit OAuth2 client' : 'Create an OAuth2 client'}
      testId="oauth2-client-dialog"
      footer={
        created ? (
          <Button variant="primary" onClick={onClose} data-testid="oauth2-client-done">
            Done
          </Button>
        ) : (
          <>
            <Button onClick={onClose}>Cancel</Button>
            <Button variant="primary" type="submit" form="oauth2-client-form" busy={mutation.isPending} data-testid="oauth2-client-submit">
              {editing ? 'Save client' : 'Create client'}
            </Button>
          </>
        )
      }
    >
      {created ? (
        <SecretNotice client={created} />
      ) : (
        <>
          <form
            id="oauth2-client-form"
            className="inline-form"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              submit();
            }}
          >
            <fieldset>
              <legend>Basics</legend>
              <TextField label="Name" value={form.client_name} onChange={(e) => update('client_name', e.target.value)} hint="Shown to users on the consent screen." data-testid="oauth2-client-name" />
              <TextField label="Owner (optional)" value={form.owner} onChange={(e) => update('owner', e.target.value)} hint="Who is responsible for the application, such as a team." />
            </fieldset>
            <fieldset>
              <legend>Redirect URIs</legend>
              <TextArea
                label="Redirect URIs"
                value={form.redirect_uris}
                onChange={(e) => update('redirect_uris', e.target.value)}
                hint="One a line: where users return after signing in, such as https://app.example.com/callback."
                rows={3}
                data-testid="oauth2-client-redirects"
              />
            </fieldset>
            <fieldset>
              <legend>Grant and response types</legend>
              {GRANT_TYPES.map((grant) => (
                <label key={grant} className="checkbox-field">
                  <input
                    type="checkbox"
                    checked={form.grant_types.includes(grant)}
                    onChange={(e) => update('grant_types', e.target.checked ? [...form.grant_types, grant] : form.grant_types.filter((g) => g !== grant))}
                    data-testid={`oauth2-client-grant-${grant}`}
                  />{' '}
                  {GRANT_LABELS[grant]}
                </label>
              ))}
              <TextField label="Response types" value={form.response_types} onChange={(e) => update('response_types', e.target.value)} hint="Space separated; code for the authorization-code flow." />
            </fieldset>
            <fieldset>
              <legend>Scopes and audience</legend>
              <TextField label="Scope" value={form.scope} onChange={(e) => update('scope', e.target.value)} hint="Space separated scopes the client may ask for, such as openid offline_access." data-testid="oauth2-client-scope" />
              <TextArea label="Audience" value={form.audience} onChange={(e) => update('audience', e.target.value)} hint="One a line: the APIs its access tokens are meant for." rows={2} />
            </fieldset>
            <fieldset>
              <legend>Authentication and tokens</legend>
              <Select
                label="Token endpoint authentication"
                value={form.token_endpoint_auth_method}
                onChange={(e) => update('token_endpoint_auth_method', e.target.value as ClientForm['token_endpoint_auth_method'])}
                hint="How the client proves who it is when it asks for tokens; none for apps that cannot keep a secret."
                options={[
                  { value: 'client_secret_basic', label: 'Secret in the Authorization header (client_secret_basic)' },
                  { value: 'client_secret_post', label: 'Secret in the request body (client_secret_post)' },
                  { value: 'private_key_jwt', label: 'Signed JWT (private_key_jwt)' },
                  { value: 'none', label: 'None: a public client with PKCE' },
                ]}
                data-testid="oauth2-client-auth-method"
              />
              <Select
                label="Access token strategy"
                value={form.access_token_strategy}
                onChange={(e) => update('access_token_strategy', e.target.value as ClientForm['access_token_strategy'])}
                hint="Opaque tokens are checked by introspection; JWTs can be verified by anyone with the project's keys."
                options={[
                  { value: '', label: "The project's setting" },
                  { value: 'opaque', label: 'Opaque' },
                  { value: 'jwt', label: 'JWT' },
                ]}
                data-testid="oauth2-client-strategy"
              />
              <Switch label="Skip consent" description="Trusted first-party apps: users are not asked to consent." checked={form.skip_consent} onCheckedChange={(v) => update('skip_consent', v)} testId="oauth2-client-skip-consent" />
            </fieldset>
            <fieldset>
              <legend>JSON Web Keys</legend>
              <TextField label="JWKS URI" value={form.jwks_uri} onChange={(e) => update('jwks_uri', e.target.value)} hint="Where the client publishes its public keys (for private_key_jwt)." />
              <TextArea label="JWKS" value={form.jwks} onChange={(e) => update('jwks', e.target.value)} hint='Or the keys themselves, as JSON: {"keys": […]}.' rows={3} />
            </fieldset>
            <fieldset>
              <legend>Logout</legend>
              <TextArea label="Post-logout redirect URIs" value={form.post_logout_redirect_uris} onChange={(e) => update('post_logout_redirect_uris', e.target.value)} hint="One a line: where users may land after signing out." rows={2} />
            </fieldset>
            <fieldset>
              <legend>Metadata</legend>
              <TextArea label="Metadata" value={form.metadata} onChange={(e) => update('metadata', e.target.value)} hint="A JSON object of your own, kept with the client." rows={3} />
            </fieldset>
            {(problem ?? mutation.error) && (
              <p className="field-error" role="alert" data-testid="oauth2-client-error">
                {problem ?? errorText(mutation.error) ?? 'Could not save the client.'}
              </p>
            )}
          </form>
          {client?.client_id && (
            <>
              <ClientLifespans projectId={projectId} client={client} onSaved={setLifespans} />
              <RotatedSecrets projectId={projectId} client={client} />
            </>
          )}
        </>
      )}
    </Dialog>
  );
}
