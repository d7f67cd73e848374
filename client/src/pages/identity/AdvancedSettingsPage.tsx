import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useLocation } from 'wouter';
import { formatDateTime } from '../../../../shared/domain/format';
import { deviceLabel } from '../../../../shared/domain/identity-display';
import type { AccountSession } from '../../../../shared/schemas/session';
import { Button } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { ConfirmDialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Table } from '../../components/Table';
import { errorText } from '../../lib/errors';
import { currentPathWithSearch, loginPath } from '../../lib/navigation';
import { ROUTES } from '../../routes';
import { sessionIdentity, useSession } from '../../shell/use-session';
import { trpc } from '../../trpc';
import { UiMessages } from './FlowNodes';
import { FlowForm } from './FlowForm';
import { FlowView } from './IdentityFrame';
import { PasskeyForm } from './PasskeyForm';
import { useFlow } from './use-flow';

const METHOD_NAMES: Record<string, string> = {
  password: 'Password',
  totp: 'Authenticator app',
  lookup_secret: 'Backup code',
  passkey: 'Passkey',
  oidc: 'Social sign-in',
  code_recovery: 'Recovery code',
  link_recovery: 'Recovery link',
};

/** The sign-in methods of the console account, through its own settings flow: passkeys, the authenticator app and backup codes. */
function SecondFactors() {
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const flow = useFlow(
    'settings',
    {},
    {
      onUnauthorized: () => navigate(loginPath(currentPathWithSearch()), { replace: true }),
      onUpdated: (updated) => {
        if (updated.state === 'success') void utils.auth.invalidate();
      },
    },
  );
  const submit = (b: Record<string, unknown>) => void flow.submit(b);
  const { state } = flow;
  if (state.status !== 'ready') return <FlowView {...flow} restart={() => void flow.restart()} submit={submit} />;
  const saved = state.flow.state === 'success';
  return (
    <>
      {saved && <UiMessages messages={state.flow.ui.messages} />}
      <Card title="Passkeys" testId="advanced-passkeys">
        <p className="card-text">Sign in without a password, with your fingerprint, face or screen lock. Each device or password manager keeps its own passkey.</p>
        <PasskeyForm key={`k-${state.version}`} flow={state.flow} submitting={flow.submitting} onSubmit={submit} testId="advanced-passkey-form" />
      </Card>
      <Card title="Authenticator app" testId="advanced-totp">
        <p className="card-text">After your password, the Console asks for the six-digit code of an app such as Google Authenticator or 1Password.</p>
        <FlowForm key={`t-${state.version}`} flow={state.flow} groups={['totp']} submitting={flow.submitting} onSubmit={submit} testId="advanced-totp-form" />
      </Card>
      <Card title="Backup codes" testId="advanced-lookup">
        <p className="card-text">One-time codes to sign in with when your authenticator app is not at hand. Keep them somewhere safe; each works once.</p>
        <FlowForm key={`l-${state.version}`} flow={state.flow} groups={['lookup_secret']} submitting={flow.submitting} onSubmit={submit} testId="advanced-lookup-form" />
      </Card>
    </>
  );
}

function deviceOf(s: AccountSession): string {
  const device = s.devices[0];
  if (!device) return '—';
  return deviceLabel({ user_agent: device.user_agent ?? undefined, ip_address: device.ip_address ?? undefined });
}

/** The account's sessions: the current one, and the others, each of which can be ended, or all at once. */
function Sessions() {
  const sessions = trpc.auth.sessions.useQuery();
  const [ending, setEnding] = useState<AccountSession | null>(null);
  const [endingAll, setEndingAll] = useState(false);
  const revoke = trpc.auth.revokeSession.useMutation({
    onSuccess: () => {
      toast.success('Session ended');
      setEnding(null);
    },
  });
  const revokeOthers = trpc.auth.revokeOtherSessions.useMutation({
    onSuccess: ({ count }) => {
      toast.success(count === 1 ? 'One other session ended' : `${count} other sessions ended`);
      setEndingAll(false);
    },
  });
  const others = (sessions.data?.sessions ?? []).filter((s) => !s.current).length;
  return (
    <Card
      title="Active sessions"
      testId="advanced-sessions"
      actions={
        <Button variant="danger" disabled={others === 0} onClick={() => setEndingAll(true)} data-testid="sessions-revoke-others">
          Sign out everywhere else
        </Button>
      }
    >
      <QueryView query={sessions} skeleton="table" errorTitle="Your sessions could not be loaded">
        {(data) => (
          <Table
            caption="Active sessions"
            testId="sessions-table"
            rows={data.sessions}
            rowKey={(s) => s.id}
            columns={[
              { key: 'device', header: 'Device', render: (s) => deviceOf(s) },
              { key: 'signed-in', header: 'Signed in', render: (s) => formatDateTime(s.authenticated_at) },
              { key: 'methods', header: 'Verified with', render: (s) => s.methods.map((m) => METHOD_NAMES[m] ?? m).join(', ') || '—' },
              {
                key: 'actions',
                header: 'Actions',
                render: (s) =>
                  s.current ? (
                    <span className="badge badge-prod" data-testid="session-current">
                      This session
                    </span>
                  ) : (
                    <Button variant="ghost" onClick={() => setEnding(s)} data-testid={`session-revoke-${s.id}`}>
                      Sign out
                    </Button>
                  ),
              },
            ]}
          />
        )}
      </QueryView>
      <ConfirmDialog
        open={ending !== null}
        title="Sign out this session?"
        message={`The device (${ending ? deviceOf(ending) : ''}) must sign in again to use the Console.`}
        confirmLabel="Sign out session"
        busy={revoke.isPending}
        error={revoke.error ? (errorText(revoke.error) ?? 'The session could not be ended.') : undefined}
        onConfirm={() => ending && revoke.mutate({ sessionId: ending.id })}
        onClose={() => (setEnding(null), revoke.reset())}
        testId="session-revoke-dialog"
      />
      <ConfirmDialog
        open={endingAll}
        title="Sign out everywhere else?"
        message="Every other browser and device signed in to your account must sign in again. This one stays signed in."
        confirmLabel="Sign out other sessions"
        busy={revokeOthers.isPending}
        error={revokeOthers.error ? (errorText(revokeOthers.error) ?? 'The sessions could not be ended.') : undefined}
        onConfirm={() => revokeOthers.mutate()}
        onClose={() => (setEndingAll(false), revokeOthers.reset())}
        testId="sessions-revoke-others-dialog"
      />
    </Card>
  );
}

/**
 * Deleting the account, after its email address is typed: refused (the dialog says why) while the account is the
 * last owner of a workspace or project; afterwards every session of it has ended, so the page goes to sign-in.
 */
function DeleteAccount() {
  const email = sessionIdentity(useSession().data)?.traits.email ?? '';
  const [open, setOpen] = useState(false);
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const remove = trpc.auth.deleteAccount.useMutation({
    onSuccess: () => {
      queryClient.clear();
      toast.success('Your account was deleted');
      navigate(ROUTES.login.build({}), { replace: true });
    },
  });
  return (
    <Card
      title="Delete account"
      testId="advanced-delete-account"
      actions={
        <Button variant="danger" disabled={!email} onClick={() => setOpen(true)} data-testid="delete-account">
          Delete account
        </Button>
      }
    >
      <p className="card-text">Deletes your Console account and signs it out everywhere. Workspaces and projects you alone own must get another owner, or be deleted, first.</p>
      <ConfirmDialog
        open={open}
        title="Delete your account?"
        message="Your account, its sessions, memberships, API keys and invites are deleted. This cannot be undone."
        confirmText={email}
        confirmLabel="Delete account"
        busy={remove.isPending}
        error={remove.error ? (errorText(remove.error) ?? 'The account could not be deleted.') : undefined}
        onConfirm={(typed) => remove.mutate({ confirmEmail: typed })}
        onClose={() => (setOpen(false), remove.reset())}
        testId="delete-account-dialog"
      />
    </Card>
  );
}

/** /settings/advanced: the console account's second factors and its sessions. */
export default function AdvancedSettingsPage() {
  return (
    <div className="page page-narrow" data-testid="advanced-settings-page">
      <PageHeader title="Advanced account settings" description="Second factors that protect your Console account, and where it is signed in." />
      <SecondFactors />
      <Sessions />
      <DeleteAccount />
    </div>
  );
}
