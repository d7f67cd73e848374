import { useState } from 'react';
import toast from 'react-hot-toast';
import type { z } from 'zod';
import { formatDateTime } from '../../../../shared/domain/format';
import type { oauth2ConsentSessionSchema } from '../../../../shared/schemas/oauth2';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { ConfirmDialog } from '../../components/Dialog';
import { Pager } from '../../components/Pager';
import { QueryView } from '../../components/QueryView';
import { Table } from '../../components/Table';
import { TextField } from '../../components/TextField';
import { errorText } from '../../lib/errors';
import { trpc } from '../../trpc';

// The wire type of a loose object loses its known fields on the way through tRPC's inference: read it as the schema says.
type ConsentSession = z.infer<typeof oauth2ConsentSessionSchema>;

/** What is being revoked: one app's consent, every app's, or the user's remembered sign-ins. */
type Revoking = { kind: 'consent'; clientId: string; name: string } | { kind: 'all' } | { kind: 'login' };

/**
 * A user's consents at the project's OAuth2 server, looked up by subject (the user id the apps know): which apps
 * they allowed and with which scopes, each revocable after confirmation; and their remembered sign-ins, which
 * can be ended so the next authorization asks them to sign in again.
 */
export function ConsentSessionsSection({ projectId }: { projectId: string }) {
  const [typed, setTyped] = useState('');
  const [subject, setSubject] = useState('');
  const [pages, setPages] = useState<string[]>([]);
  const pageToken = pages.at(-1);
  const [revoking, setRevoking] = useState<Revoking | null>(null);
  const list = trpc.oauth2Sessions.listConsent.useQuery(
    { projectId, subject, ...(pageToken ? { pageToken } : {}) },
    { enabled: subject !== '', placeholderData: (previous) => previous },
  );
  const done = (message: string) => () => (toast.success(message), setRevoking(null));
  const revokeConsent = trpc.oauth2Sessions.revokeConsent.useMutation({ onSuccess: () => (setPages([]), done('Consent revoked')()) });
  const revokeLogin = trpc.oauth2Sessions.revokeLogin.useMutation({ onSuccess: done('Sign-ins ended') });
  const busy = revokeConsent.isPending || revokeLogin.isPending;
  const failure = revokeConsent.error ?? revokeLogin.error;
  const close = () => (setRevoking(null), revokeConsent.reset(), revokeLogin.reset());

  const confirm = () => {
    if (!revoking) return;
    if (revoking.kind === 'login') revokeLogin.mutate({ projectId, subject });
    else revokeConsent.mutate({ projectId, subject, ...(revoking.kind === 'consent' ? { clientId: revoking.clientId } : {}) });
  };

  return (
    <Card title="Consent sessions" testId="oauth2-consent-sessions">
      <form
        className="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          setSubject(typed.trim());
          setPages([]);
        }}
        data-testid="oauth2-consent-lookup"
      >
        <TextField
          label="Subject"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          hint="The user's ID as the apps know it (the sub claim of their tokens, usually the identity's ID)."
          autoComplete="off"
          data-testid="oauth2-consent-subject"
        />
        <div className="form-actions">
          <Button type="submit" disabled={!typed.trim()} data-testid="oauth2-consent-lookup-submit">
            Show consents
          </Button>
        </div>
      </form>
      {subject === '' ? (
        <p className="hint">Look up a user to see which apps they allowed to act for them, and revoke that access.</p>
      ) : (
        <QueryView
          query={list}
          skeleton="table"
          errorTitle="The consent sessions could not be loaded"
          isEmpty={(page) => page.sessions.length === 0 && pages.length === 0}
          empty={{
            testId: 'oauth2-consent-empty',
            title: 'No consents for this subject',
            description: 'This user has not allowed any app yet, or every consent was revoked. Check the subject if you expected one.',
          }}
        >
          {(page) => (
            <>
              <Table
                caption={`Apps ${subject} consented to`}
                testId="oauth2-consent-table"
                rowKey={(s) => s.consent_request_id ?? s.consent_request?.client?.client_id ?? ''}
                rows={page.sessions as ConsentSession[]}
                columns={[
                  { key: 'app', header: 'App', className: 'col-name', render: (s) => s.consent_request?.client?.client_name || <code>{s.consent_request?.client?.client_id}</code> },
                  { key: 'scopes', header: 'Scopes granted', render: (s) => (s.grant_scope?.length ? s.grant_scope.join(' ') : <em>None</em>) },
                  { key: 'remember', header: 'Remembered', render: (s) => (s.remember ? 'Yes' : 'No') },
                  { key: 'when', header: 'Granted', render: (s) => formatDateTime(s.handled_at ?? null, { fallback: '' }) },
                  {
                    key: 'actions',
                    header: 'Actions',
                    render: (s) => {
                      const client = s.consent_request?.client;
                      if (!client?.client_id) return null;
                      const name = client.client_name || client.client_id;
                      return (
                        <Button variant="ghost" onClick={() => setRevoking({ kind: 'consent', clientId: client.client_id!, name })} data-testid={`oauth2-consent-revoke-${name}`}>
                          Revoke
                        </Button>
                      );
                    },
                  },
                ]}
              />
              <Pager
                label="Consent session pages"
                hasPrevious={pages.length > 0}
                nextToken={page.nextPageToken}
                busy={list.isFetching}
                onPrevious={() => setPages(pages.slice(0, -1))}
                onNext={(token) => setPages([...pages, token])}
                testId="oauth2-consent-pager"
              />
              <div className="row-actions">
                <Button onClick={() => setRevoking({ kind: 'all' })} data-testid="oauth2-consent-revoke-all">
                  Revoke every app
                </Button>
              </div>
            </>
          )}
        </QueryView>
      )}
      {subject !== '' && (
        <div className="row-actions">
          <Button onClick={() => setRevoking({ kind: 'login' })} data-testid="oauth2-login-revoke">
            End remembered sign-ins
          </Button>
        </div>
      )}

      <ConfirmDialog
        open={revoking !== null}
        title={revoking?.kind === 'login' ? 'End this user’s remembered sign-ins?' : 'Revoke consent?'}
        message={
          revoking?.kind === 'login'
            ? `The next time an app asks, ${subject} must sign in again. Tokens already issued keep working.`
            : revoking?.kind === 'consent'
              ? `"${revoking.name}" can no longer act for ${subject}: the tokens issued under this consent stop working, and the app must ask again.`
              : `Every app loses its access to ${subject}: the tokens issued under these consents stop working. This cannot be undone.`
        }
        confirmLabel={revoking?.kind === 'login' ? 'End sign-ins' : 'Revoke'}
        busy={busy}
        error={failure ? (errorText(failure) ?? 'Could not revoke.') : undefined}
        onConfirm={confirm}
        onClose={close}
        testId="revoke-oauth2-consent-dialog"
      />
    </Card>
  );
}
