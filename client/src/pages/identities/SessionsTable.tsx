import { formatDateTime } from '../../../../shared/domain/format';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'wouter';
import { deviceLabel, identityLabel, sessionMethods } from '../../../../shared/domain/identity-display';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Table } from '../../components/Table';
import { errorText } from '../../lib/errors';
import { ROUTES } from '../../routes';
import { usePagedList } from '../../lib/use-paged-list';
import { trpc } from '../../trpc';

const when = (iso: string | null | undefined) => formatDateTime(iso);

/** Sessions of a project, or of one identity: who, how they signed in (methods, AAL), from where, until when; revoke one or all. */
export function SessionsTable({ projectId, identityId }: { projectId: string; identityId?: string }) {
  const { pageToken, pager } = usePagedList('sessionPages');
  const sessions = trpc.sessions.list.useQuery({ projectId, ...(identityId ? { identityId } : {}), ...(pageToken ? { pageToken } : {}) }, { placeholderData: (previous) => previous });
  const [revoking, setRevoking] = useState<{ id: string } | 'all' | null>(null);
  const done = (message: string) => {
    toast.success(message);
    setRevoking(null);
  };
  const revoke = trpc.sessions.revoke.useMutation({ onSuccess: () => done('Session revoked') });
  const revokeAll = trpc.sessions.revokeAll.useMutation({ onSuccess: () => done('All sessions revoked') });
  const failure = revoke.error ?? revokeAll.error;

  return (
    <>
      <QueryView
        query={sessions}
        skeleton="table"
        errorTitle="The sessions could not be loaded"
        isEmpty={(answer) => answer.sessions.length === 0}
        empty={{ title: 'No sessions', description: identityId ? 'This identity is not signed in anywhere.' : 'Sessions appear here when users sign in.' }}
      >
        {(answer) => (
          <>
            {identityId && (
              <div className="form-actions">
                <Button variant="danger" onClick={() => setRevoking('all')} data-testid="sessions-revoke-all">
                  Revoke all sessions
                </Button>
              </div>
            )}
            <Table
              caption="Sessions"
              testId="sessions-table"
              rows={answer.sessions}
              rowKey={(s) => s.id}
              columns={[
                ...(identityId
                  ? []
                  : [
                      {
                        key: 'identity',
                        header: 'Identity',
                        className: 'col-name',
                        render: (s: (typeof answer.sessions)[number]) =>
                          s.identity ? (
                            <Link href={ROUTES.identity.build({ project: projectId, identity: s.identity.id })} className="link">
                              {identityLabel(s.identity)}
                            </Link>
                          ) : (
                            '—'
                          ),
                      },
                    ]),
                {
                  key: 'session',
                  header: 'Session',
                  render: (s) => (
                    <Link href={ROUTES.session.build({ project: projectId, session: s.id })} className="link" data-testid="session-link">
                      <span className={`badge badge-${s.active ? 'prod' : 'stage'}`}>{s.active ? 'Active' : 'Revoked'}</span>
                    </Link>
                  ),
                },
                { key: 'methods', header: 'Signed in with', render: (s) => `${sessionMethods(s)} (${s.authenticator_assurance_level ?? 'aal1'})` },
                { key: 'device', header: 'Device', render: (s) => (s.devices ?? []).map(deviceLabel).join('; ') || '—' },
                { key: 'authenticated', header: 'Signed in', render: (s) => when(s.authenticated_at) },
                { key: 'expires', header: 'Expires', render: (s) => when(s.expires_at) },
                {
                  key: 'actions',
                  header: 'Actions',
                  render: (s) =>
                    s.active ? (
                      <Button variant="ghost" onClick={() => setRevoking({ id: s.id })} data-testid="session-revoke">
                        Revoke
                      </Button>
                    ) : null,
                },
              ]}
            />
            {pager({ label: 'Session pages', nextToken: answer.nextPageToken, busy: sessions.isFetching && sessions.isPlaceholderData, testId: 'sessions' })}
          </>
        )}
      </QueryView>
      <ConfirmDialog
        open={revoking !== null}
        title={revoking === 'all' ? 'Revoke all sessions of this identity?' : 'Revoke this session?'}
        message={revoking === 'all' ? 'The identity is signed out everywhere at once.' : 'The device that holds it is signed out at once.'}
        confirmLabel={revoking === 'all' ? 'Revoke all' : 'Revoke session'}
        busy={revoke.isPending || revokeAll.isPending}
        error={failure ? (errorText(failure) ?? 'The session could not be revoked.') : undefined}
        onConfirm={() => {
          if (revoking === 'all' && identityId) revokeAll.mutate({ projectId, identityId });
          else if (revoking && revoking !== 'all') revoke.mutate({ projectId, sessionId: revoking.id });
        }}
        onClose={() => (setRevoking(null), revoke.reset(), revokeAll.reset())}
        testId="session-revoke-dialog"
      />
    </>
  );
}
