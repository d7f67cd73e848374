import toast from 'react-hot-toast';
import { useLocation, useSearch } from 'wouter';
import { Button, LinkButton } from '../../components/Button';
import { Card, EmptyState, PageHeader } from '../../components/Card';
import { QueryView } from '../../components/QueryView';
import { Table } from '../../components/Table';
import { errorText } from '../../lib/errors';
import { ROUTES } from '../../routes';
import { isAuthenticated, useSession } from '../../shell/use-session';
import { trpc } from '../../trpc';
import { IdentityCard } from '../identity/IdentityFrame';

const STATUS_TEXT: Record<string, string> = {
  accepted: 'This invite was already accepted.',
  declined: 'This invite was declined.',
  expired: 'This invite has expired. Ask whoever invited you for a new one.',
  cancelled: 'This invite was cancelled.',
  removed: 'This invite was removed.',
};

/** Where an accepted invite leads: its project or workspace. */
function targetHref(invite: Record<string, unknown>): string {
  if (typeof invite.project_id === 'string') return ROUTES.collaborators.build({ project: invite.project_id });
  if (typeof invite.workspace_id === 'string') return ROUTES.workspace.build({ workspace: invite.workspace_id });
  return ROUTES.projects.build({});
}

function useAnswer() {
  const [, navigate] = useLocation();
  const accept = trpc.invites.accept.useMutation({
    onSuccess: (invite) => {
      toast.success('Invite accepted');
      navigate(targetHref(invite));
    },
  });
  const decline = trpc.invites.decline.useMutation({ onSuccess: () => toast.success('Invite declined') });
  return { accept, decline };
}

/** The invite an emailed link points at: who invited you to what, then sign in or register to answer. */
function LinkedInvite({ inviteId, token, signedIn }: { inviteId: string; token: string; signedIn: boolean }) {
  const invite = trpc.invites.getPublic.useQuery({ inviteId, token }, { retry: false });
  const { accept, decline } = useAnswer();
  // With the link's token, the invite is attached to the signed-in account first, so it can be answered
  // even when the account's email is not the address the invite went to.
  const link = trpc.invites.link.useMutation();
  const attach = async () => {
    await link.mutateAsync({ inviteId, token });
  };
  const back = `/invites?${new URLSearchParams({ invite: inviteId, token }).toString()}`;
  const error = link.error ?? accept.error ?? decline.error;
  return (
    <QueryView query={invite} skeleton="details" errorTitle="This invite could not be found">
      {(view) => (
        <div className="inline-form" data-testid="linked-invite">
          <p data-testid="linked-invite-text">
            <strong>{view.inviter_name || view.inviter_email}</strong> invited <strong>{view.invitee_email}</strong> to the {view.target_kind}{' '}
            <strong>{view.target_name}</strong> as {view.role === 'owner' ? 'an owner' : 'a developer'}.
          </p>
          {view.status !== 'pending' ? (
            <p className="banner" role="status">
              {STATUS_TEXT[view.status] ?? `This invite is ${view.status}.`}
            </p>
          ) : signedIn ? (
            <div className="row-actions">
              <Button
                variant="primary"
                busy={link.isPending || accept.isPending}
                onClick={() => void attach().then(() => accept.mutate({ inviteId }), () => undefined)}
                data-testid="linked-invite-accept"
              >
                Accept and open the {view.target_kind}
              </Button>
              <Button
                busy={link.isPending || decline.isPending}
                onClick={() => void attach().then(() => decline.mutate({ inviteId }, { onSuccess: () => void invite.refetch() }), () => undefined)}
                data-testid="linked-invite-decline"
              >
                Decline
              </Button>
            </div>
          ) : (
            <div className="row-actions">
              <LinkButton href={`${ROUTES.registration.build({})}?${new URLSearchParams({ return_to: back }).toString()}`} data-testid="linked-invite-register">
                Create an account to accept
              </LinkButton>
              <LinkButton href={`${ROUTES.login.build({})}?${new URLSearchParams({ return_to: back }).toString()}`} variant="secondary" data-testid="linked-invite-login">
                Sign in to accept
              </LinkButton>
            </div>
          )}
          {error && (
            <p className="field-error" role="alert">
              {errorText(error) ?? 'Could not answer the invite.'}
            </p>
          )}
        </div>
      )}
    </QueryView>
  );
}

/** The landing page of an emailed invite link: one centred card, like the sign-in page. */
function InviteLanding({ inviteId, token, signedIn }: { inviteId: string; token: string | null; signedIn: boolean }) {
  return (
    <div data-testid="invites-page">
      <IdentityCard
        title="You are invited"
        testId="invite-landing"
        footer={
          signedIn ? (
            <LinkButton href={ROUTES.invites.build({})} variant="secondary" data-testid="all-invites-link">
              All your invites
            </LinkButton>
          ) : undefined
        }
      >
        {token ? (
          <LinkedInvite inviteId={inviteId} token={token} signedIn={signedIn} />
        ) : (
          <p className="state-text" role="alert" data-testid="invite-link-incomplete">
            This invite link is incomplete: open the link from the email again.
          </p>
        )}
      </IdentityCard>
    </div>
  );
}

function MyInvites() {
  const invites = trpc.invites.mine.useQuery();
  const { accept, decline } = useAnswer();
  return (
    <Card title="Your pending invites" testId="my-invites">
      <QueryView
        query={invites}
        skeleton="table"
        errorTitle="Your invites could not be loaded"
        isEmpty={(rows) => rows.length === 0}
        empty={{ title: 'No invites', description: 'When someone invites you to a project or a workspace, the invite shows up here once your email address is verified, or open the link in the invite email.' }}
      >
        {(rows) => (
          <Table
            caption="Your pending invites"
            testId="my-invites-table"
            rowKey={(i) => i.id}
            rows={rows}
            columns={[
              { key: 'to', header: 'To', render: (i) => `${i.target_name || 'Unnamed'} (${i.project_id ? 'project' : 'workspace'})` },
              { key: 'from', header: 'From', render: (i) => (i.owner_name ? `${i.owner_name} (${i.owner_email})` : i.owner_email) },
              { key: 'role', header: 'Role', render: (i) => (i.role === 'owner' ? 'Owner' : 'Developer') },
              {
                key: 'actions',
                header: 'Actions',
                render: (i) => (
                  <div className="row-actions">
                    <Button variant="primary" disabled={accept.isPending} onClick={() => accept.mutate({ inviteId: i.id })} data-testid={`invite-accept-${i.id}`}>
                      Accept
                    </Button>
                    <Button disabled={decline.isPending} onClick={() => decline.mutate({ inviteId: i.id })} data-testid={`invite-decline-${i.id}`}>
                      Decline
                    </Button>
                  </div>
                ),
              },
            ]}
          />
        )}
      </QueryView>
    </Card>
  );
}

/** /invites: your pending invites; with an emailed link's invite, that invite alone (which works signed out too). */
export default function InvitesPage() {
  const params = new URLSearchParams(useSearch());
  const inviteId = params.get('invite');
  const token = params.get('token');
  const session = useSession();
  const signedIn = isAuthenticated(session.data);
  if (inviteId) return <InviteLanding inviteId={inviteId} token={token} signedIn={signedIn} />;
  return (
    <div className="page page-narrow" data-testid="invites-page">
      <PageHeader title="Invites" description="Invitations to join projects and workspaces." />
      {signedIn ? <MyInvites /> : <EmptyState title="Sign in to see your invites" action={<LinkButton href={`${ROUTES.login.build({})}?return_to=%2Finvites`}>Sign in</LinkButton>} />}
    </div>
  );
}
