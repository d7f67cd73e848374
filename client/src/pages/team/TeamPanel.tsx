import { formatDate } from '../../../../shared/domain/format';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { ActionForm, useActionForm } from '../../components/ActionForm';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Table } from '../../components/Table';
import { Select, TextField } from '../../components/TextField';
import { Tooltip } from '../../components/Tooltip';
import { quotaFailure, UpgradePrompt } from '../../components/UpgradePrompt';
import { errorText } from '../../lib/errors';
import { trpc } from '../../trpc';
import { analytics, ANALYTICS_EVENTS } from '../../lib/analytics';
import { showError } from '../../shell/error-toast';
import { scopeNoun, type TeamScope } from './scope';
import { inviteFormSchema } from '../../../../shared/schemas/team';
import { useOwnerAnswer } from './use-owner';

const OWNER_ONLY = 'Only an owner can do this.';
const OWNER_ONLY_TEAM = 'Only an owner can invite people, change roles, remove members or resend, cancel and delete invites.';

/** How an invite that is no longer pending ended. */
const INVITE_STATUS_LABELS: Record<string, string> = { accepted: 'Accepted', declined: 'Declined', expired: 'Expired', cancelled: 'Cancelled' };
const ROLE_OPTIONS = [
  { value: 'developer', label: 'Developer' },
  { value: 'owner', label: 'Owner' },
];

/** An action only owners may take: disabled, with a tooltip saying why, for everyone else. */
function OwnerAction({ isOwner, children, reason = OWNER_ONLY }: { isOwner: boolean; children: React.ReactElement; reason?: string }) {
  return isOwner ? children : <Tooltip content={reason}>{children}</Tooltip>;
}

function InviteDialog({ scope, open, onClose, workspaceId }: { scope: TeamScope; open: boolean; onClose: () => void; workspaceId: string | null }) {
  const seats = trpc.quota.get.useQuery({ ...scope, feature: 'collaborator_seats' }, { enabled: open });
  const create = trpc.invites.create.useMutation();
  const action = useActionForm({
    schema: inviteFormSchema,
    defaultValues: { email: '', role: 'developer' },
    onSubmit: (values) => create.mutateAsync({ ...scope, ...values }),
    onDone: (answer) => {
      analytics.capture(ANALYTICS_EVENTS.memberInviteCreated, { role: answer.created_invite.role, scope: scopeNoun(scope) });
      toast.success(`Invite sent to ${answer.created_invite.invitee_email}`);
      onClose();
    },
    errorFallback: 'Could not send the invite.',
    // Out of seats: the upgrade prompt below says it, with the plan that has more.
    reportsError: (error) => quotaFailure(error) !== null,
  });
  const failure = create.error ? quotaFailure(create.error) : null;
  const close = () => {
    action.reset();
    create.reset();
    onClose();
  };
  const left = seats.data ? (seats.data.is_unlimited ? 'Unlimited seats' : `${Math.max(0, seats.data.included - seats.data.used)} of ${seats.data.included} seats left`) : 'Counting seats…';
  return (
    <Dialog
      open={open}
      onClose={close}
      title={`Invite someone to this ${scopeNoun(scope)}`}
      description={<span data-testid="seats-left">{left}</span>}
      testId="invite-dialog"
      footer={
        <>
          <Button onClick={close}>Cancel</Button>
          <Button variant="primary" form={action.id} type="submit" busy={action.busy} data-testid="invite-submit">
            Send invite
          </Button>
        </>
      }
    >
      <ActionForm action={action} testId="invite-form">
        <TextField label="Email address" type="email" autoComplete="off" error={action.form.formState.errors.email?.message} data-testid="invite-email" required {...action.form.register('email')} />
        <Select label="Role" options={ROLE_OPTIONS} error={action.form.formState.errors.role?.message} data-testid="invite-role" {...action.form.register('role')} />
      </ActionForm>
      {failure && <UpgradePrompt feature="collaborator_seats" units={(seats.data?.used ?? 0) + 1} workspaceId={workspaceId} />}
    </Dialog>
  );
}

/** What removing a member does, naming the API keys of theirs that stop working with it. */
function RemoveMemberMessage({ scope, member }: { scope: TeamScope; member: { id: string; email: string } }) {
  const keys = trpc.members.keys.useQuery({ ...scope, memberId: member.id });
  const names = (keys.data ?? []).map((k) => `${k.name}${k.last_characters ? ` (…${k.last_characters})` : ''}`);
  return (
    <span data-testid="remove-member-message">
      {member.email} loses access to this {scopeNoun(scope)} at once
      {'workspaceId' in scope ? ' and to its projects' : ''}.{' '}
      {keys.isPending ? (
        'Looking up the API keys they created…'
      ) : keys.isError ? (
        'The API keys they created here are revoked too (the list could not be loaded).'
      ) : names.length === 0 ? (
        'They created no API keys here.'
      ) : (
        <span data-testid="remove-member-keys">
          {names.length === 1 ? 'Their API key stops working: ' : `Their ${names.length} API keys stop working: `}
          {names.join(', ')}.
        </span>
      )}
    </span>
  );
}

/** Members and pending invites of a project or a workspace, with the actions the caller's role allows. */
export function TeamPanel({ scope, workspaceId, currentUserId }: { scope: TeamScope; workspaceId: string | null; currentUserId: string | undefined }) {
  const ownerAnswer = useOwnerAnswer(scope);
  const isOwner = ownerAnswer === true;
  const members = trpc.members.list.useQuery(scope);
  const invites = trpc.invites.list.useQuery(scope);
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<{ id: string; email: string } | null>(null);
  const setRole = trpc.members.setRole.useMutation({ onSuccess: (member) => toast.success(`${member.email} is now ${member.role === 'owner' ? 'an owner' : 'a developer'}`) });
  const remove = trpc.members.remove.useMutation({ onSuccess: () => (toast.success('Member removed'), setRemoving(null)) });
  const cancel = trpc.invites.cancel.useMutation({ onSuccess: (invite) => toast.success(`Invite to ${invite.invitee_email} cancelled`) });
  const resend = trpc.invites.create.useMutation({ onSuccess: (answer) => toast.success(`Invite sent again to ${answer.created_invite.invitee_email}`) });
  const onError = (context: string) => (error: unknown) => void showError(error, context);
  const pending = (invites.data ?? []).filter((i) => i.status === 'pending');
  const past = (invites.data ?? []).filter((i) => i.status !== 'pending' && i.status !== 'removed');
  const removeInvite = trpc.invites.remove.useMutation({ onSuccess: () => toast.success('Invite deleted') });
  // Spec §9: a full plan is said before anyone fills in the invite, with the plan that has more seats.
  const seats = trpc.quota.get.useQuery({ ...scope, feature: 'collaborator_seats' }, { enabled: isOwner });
  const full = seats.data !== undefined && !seats.data.can_use_more;

  return (
    <>
      <Card
        title="Members"
        testId="members-card"
        actions={
          <OwnerAction isOwner={isOwner} reason="Only an owner can invite people.">
            <Button variant="primary" disabled={!isOwner || full} title={full ? 'Every seat is in use: see the plan that has more below.' : undefined} onClick={() => setInviting(true)} data-testid="invite-open">
              Invite
            </Button>
          </OwnerAction>
        }
      >
        {/* Disabled buttons say why on hover; a touch or keyboard user reads it here. */}
        {ownerAnswer === false && (
          <p className="banner" role="status" data-testid="team-owner-note">
            {OWNER_ONLY_TEAM}
          </p>
        )}
        {/* Members and invites appear in one render: whichever answer came second would otherwise move the other card. */}
        <QueryView query={members} waitFor={[invites]} skeleton="table" errorTitle="The members could not be loaded">
          {(rows) => (
            <Table
              caption="Members"
              testId="members-table"
              rowKey={(m) => m.id}
              rows={rows}
              columns={[
                { key: 'name', header: 'Name', className: 'col-name', render: (m) => m.name || m.email },
                { key: 'email', header: 'Email', render: (m) => m.email },
                {
                  key: 'role',
                  header: 'Role',
                  render: (m) =>
                    isOwner && (m.source === 'workspace') === ('workspaceId' in scope) ? (
                      <Select
                        label={`Role of ${m.email}`}
                        hideLabel
                        options={ROLE_OPTIONS}
                        value={m.role}
                        disabled={setRole.isPending}
                        onChange={(event) =>
                          setRole.mutate({ ...scope, memberId: m.id, role: event.target.value as 'owner' | 'developer' }, { onError: onError('Could not change the role') })
                        }
                        data-testid={`member-role-${m.email}`}
                      />
                    ) : (
                      <span data-testid={`member-role-text-${m.email}`}>{m.role === 'owner' ? 'Owner' : 'Developer'}</span>
                    ),
                },
                { key: 'source', header: 'Access through', render: (m) => (m.source === 'workspace' ? 'Workspace' : 'Project') },
                {
                  key: 'actions',
                  header: 'Actions',
                  render: (m) =>
                    m.id === currentUserId ? (
                      <span className="muted">You</span>
                    ) : (
                      <OwnerAction isOwner={isOwner} reason="Only an owner can remove members.">
                        <Button variant="ghost" disabled={!isOwner} onClick={() => setRemoving({ id: m.id, email: m.email })} data-testid={`member-remove-${m.email}`}>
                          Remove
                        </Button>
                      </OwnerAction>
                    ),
                },
              ]}
            />
          )}
        </QueryView>
      </Card>

      <Card title="Pending invites" testId="invites-card">
        <QueryView
          query={invites}
          waitFor={[members]}
          skeleton="table"
          errorTitle="The invites could not be loaded"
          isEmpty={() => pending.length === 0}
          empty={{ title: 'No pending invites', description: 'People you invite show up here until they accept or decline.' }}
        >
          {() => (
            <Table
              caption="Pending invites"
              testId="invites-table"
              rowKey={(i) => i.id}
              rows={pending}
              columns={[
                { key: 'email', header: 'Email', render: (i) => i.invitee_email },
                { key: 'role', header: 'Role', render: (i) => (i.role === 'owner' ? 'Owner' : 'Developer') },
                { key: 'sent', header: 'Sent', render: (i) => formatDate(i.created_at) },
                {
                  key: 'actions',
                  header: 'Actions',
                  render: (i) => (
                    <div className="row-actions">
                      <OwnerAction isOwner={isOwner}>
                        <Button
                          variant="ghost"
                          disabled={!isOwner || resend.isPending}
                          onClick={async () => {
                            // Resending replaces the invite: a new link, and the old one stops working.
                            await cancel.mutateAsync({ inviteId: i.id }).catch(onError('Could not resend the invite'));
                            resend.mutate({ ...scope, email: i.invitee_email, role: i.role === 'owner' ? 'owner' : 'developer' }, { onError: onError('Could not resend the invite') });
                          }}
                          data-testid={`invite-resend-${i.invitee_email}`}
                        >
                          Resend
                        </Button>
                      </OwnerAction>
                      <OwnerAction isOwner={isOwner}>
                        <Button
                          variant="ghost"
                          disabled={!isOwner || cancel.isPending}
                          onClick={() => cancel.mutate({ inviteId: i.id }, { onError: onError('Could not cancel the invite') })}
                          data-testid={`invite-cancel-${i.invitee_email}`}
                        >
                          Cancel invite
                        </Button>
                      </OwnerAction>
                    </div>
                  ),
                },
              ]}
            />
          )}
        </QueryView>
      </Card>
      {past.length > 0 && (
        <Card title="Past invites" testId="past-invites-card">
          <Table
            caption="Past invites"
            testId="past-invites-table"
            rowKey={(i) => i.id}
            rows={past}
            columns={[
              { key: 'email', header: 'Email', render: (i) => i.invitee_email },
              { key: 'status', header: 'Status', render: (i) => <span data-testid={`past-invite-status-${i.invitee_email}`}>{INVITE_STATUS_LABELS[i.status] ?? i.status}</span> },
              { key: 'sent', header: 'Sent', render: (i) => formatDate(i.created_at) },
              {
                key: 'actions',
                header: 'Actions',
                render: (i) => (
                  <OwnerAction isOwner={isOwner}>
                    <Button
                      variant="ghost"
                      disabled={!isOwner || removeInvite.isPending}
                      onClick={() => removeInvite.mutate({ inviteId: i.id }, { onError: onError('Could not delete the invite') })}
                      data-testid={`invite-delete-${i.invitee_email}`}
                    >
                      Delete
                    </Button>
                  </OwnerAction>
                ),
              },
            ]}
          />
        </Card>
      )}
      {/* Last in the panel: seats are counted apart from the lists, and a notice that arrives after them moves nothing. */}
      {full && seats.data && (
        <div data-testid="seats-notice">
          <p className="muted" data-testid="seats-full">
            {seats.data.used} of {seats.data.included} seats in use
          </p>
          <UpgradePrompt feature="collaborator_seats" units={seats.data.used + 1} workspaceId={workspaceId} projectId={'projectId' in scope ? scope.projectId : null} />
        </div>
      )}

      <InviteDialog scope={scope} open={inviting} onClose={() => setInviting(false)} workspaceId={workspaceId} />
      <ConfirmDialog
        open={removing !== null}
        title="Remove this member?"
        message={removing ? <RemoveMemberMessage scope={scope} member={removing} /> : ''}
        confirmLabel="Remove member"
        busy={remove.isPending}
        error={remove.error ? (errorText(remove.error) ?? 'Could not remove the member.') : undefined}
        onConfirm={() => removing && remove.mutate({ ...scope, memberId: removing.id })}
        onClose={() => (setRemoving(null), remove.reset())}
        testId="remove-member-dialog"
      />
    </>
  );
}
