import { formatDateTime } from '../../../../shared/domain/format';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useParams } from 'wouter';
import { deviceLabel, identityLabel, sessionMethods } from '../../../../shared/domain/identity-display';
import { Button } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { ConfirmDialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Table } from '../../components/Table';
import { errorText } from '../../lib/errors';
import { ROUTES } from '../../routes';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';

const when = (iso: string | null | undefined) => formatDateTime(iso);

/** /projects/{project}/sessions/{session}: one session — its identity, methods, AAL, devices and expiry; revoke or extend it. */
export default function SessionDetailPage() {
  const project = useProject();
  const projectId = project.id;
  const { session: sessionId = '' } = useParams<{ session: string }>();
  const session = trpc.sessions.get.useQuery({ projectId, sessionId });
  const utils = trpc.useUtils();
  const [revoking, setRevoking] = useState(false);
  const revoke = trpc.sessions.revoke.useMutation({
    onSuccess: () => {
      toast.success('Session revoked');
      setRevoking(false);
    },
  });
  const extend = trpc.sessions.extend.useMutation({
    onSuccess: (updated) => {
      utils.sessions.get.setData({ projectId, sessionId }, updated);
      toast.success('Session extended');
    },
    onError: (err) => toast.error(errorText(err) ?? 'The session could not be extended.'),
  });

  return (
    <div className="page" data-testid="session-page">
      <QueryView query={session} skeleton="details" errorTitle="The session could not be loaded">
        {(s) => (
          <>
            <PageHeader
              title="Session"
              description={<code>{s.id}</code>}
              actions={
                s.active ? (
                  <>
                    <Button busy={extend.isPending} onClick={() => extend.mutate({ projectId, sessionId })} data-testid="session-extend">
                      Extend
                    </Button>
                    <Button variant="danger" onClick={() => setRevoking(true)} data-testid="session-revoke-open">
                      Revoke
                    </Button>
                  </>
                ) : undefined
              }
            />
            <Card title="Details" testId="session-details">
              <dl className="facts">
                <div>
                  <dt>State</dt>
                  <dd data-testid="session-state">{s.active ? 'Active' : 'Revoked'}</dd>
                </div>
                <div>
                  <dt>Identity</dt>
                  <dd>
                    {s.identity ? (
                      <Link href={ROUTES.identity.build({ project: projectId, identity: s.identity.id })} className="link">
                        {identityLabel(s.identity)}
                      </Link>
                    ) : (
                      '—'
                    )}
                  </dd>
                </div>
                <div>
                  <dt>Assurance level</dt>
                  <dd>{s.authenticator_assurance_level ?? 'aal1'}</dd>
                </div>
                <div>
                  <dt>Signed in with</dt>
                  <dd>{sessionMethods(s)}</dd>
                </div>
                <div>
                  <dt>Signed in</dt>
                  <dd>{when(s.authenticated_at)}</dd>
                </div>
                <div>
                  <dt>Expires</dt>
                  <dd data-testid="session-expires">{when(s.expires_at)}</dd>
                </div>
              </dl>
            </Card>
            <Card title="Devices" testId="session-devices">
              <Table
                caption="Devices"
                rows={s.devices ?? []}
                rowKey={(d) => d.id}
                columns={[
                  { key: 'device', header: 'Device', render: (d) => deviceLabel(d) },
                  { key: 'ua', header: 'User agent', className: 'col-code', render: (d) => <code>{d.user_agent ?? ''}</code> },
                  { key: 'location', header: 'Location', render: (d) => d.location || '—' },
                ]}
              />
            </Card>
            <ConfirmDialog
              open={revoking}
              title="Revoke this session?"
              message="The device that holds it is signed out at once."
              confirmLabel="Revoke session"
              busy={revoke.isPending}
              error={revoke.error ? (errorText(revoke.error) ?? 'The session could not be revoked.') : undefined}
              onConfirm={() => revoke.mutate({ projectId, sessionId })}
              onClose={() => (setRevoking(false), revoke.reset())}
              testId="session-revoke-dialog"
            />
          </>
        )}
      </QueryView>
    </div>
  );
}
