import { useState } from 'react';
import toast from 'react-hot-toast';
import type { IdentityAnswer as Identity } from '../../../../shared/schemas/identities';
import { Button } from '../../components/Button';
import { Card, EmptyState } from '../../components/Card';
import { ConfirmDialog } from '../../components/Dialog';
import { Table } from '../../components/Table';
import { errorText } from '../../lib/errors';
import { trpc } from '../../trpc';
import { formatDate } from '../../../../shared/domain/format';

const CREDENTIAL_NAMES: Record<string, string> = {
  password: 'Password',
  oidc: 'Social sign-in',
  saml: 'SAML',
  totp: 'Authenticator app',
  lookup_secret: 'Recovery codes',
  webauthn: 'Security key',
  passkey: 'Passkey',
  code: 'One-time code',
};

/** The identity's credentials (never their secrets) with the identifiers each signs in with; one can be removed. */
export function CredentialsCard({ projectId, identity }: { projectId: string; identity: Identity }) {
  const credentials = Object.entries(identity.credentials ?? {}).map(([type, c]) => ({ type, ...c }));
  const [removing, setRemoving] = useState<string | null>(null);
  const remove = trpc.identities.deleteCredential.useMutation({
    onSuccess: () => {
      toast.success('Credential removed');
      setRemoving(null);
    },
  });
  return (
    <Card title="Credentials" testId="identity-credentials-card">
      {credentials.length === 0 ? (
        <EmptyState title="No credentials" description="This identity cannot sign in yet: it can set a password through recovery." />
      ) : (
        <Table
          caption="Credentials"
          testId="identity-credentials"
          rows={credentials}
          rowKey={(c) => c.type}
          columns={[
            { key: 'type', header: 'Method', render: (c) => CREDENTIAL_NAMES[c.type] ?? c.type },
            { key: 'identifiers', header: 'Identifiers', render: (c) => (c.identifiers ?? []).join(', ') || <span className="muted">—</span> },
            { key: 'updated', header: 'Last changed', render: (c) => formatDate(c.updated_at ?? c.created_at) },
            {
              key: 'actions',
              header: 'Actions',
              render: (c) => (
                <Button variant="ghost" onClick={() => setRemoving(c.type)} data-testid={`credential-remove-${c.type}`}>
                  Remove
                </Button>
              ),
            },
          ]}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        title="Remove this credential?"
        message={`The identity can no longer sign in with ${CREDENTIAL_NAMES[removing ?? ''] ?? removing}. This cannot be undone.`}
        confirmLabel="Remove credential"
        busy={remove.isPending}
        error={remove.error ? (errorText(remove.error) ?? 'The credential could not be removed.') : undefined}
        onConfirm={() => removing && remove.mutate({ projectId, identityId: identity.id, type: removing as never })}
        onClose={() => (setRemoving(null), remove.reset())}
        testId="credential-remove-dialog"
      />
    </Card>
  );
}

/** Verifiable addresses with their verification status, and recovery addresses. */
export function AddressesCard({ identity }: { identity: Identity }) {
  const verifiable = identity.verifiable_addresses ?? [];
  const recovery = identity.recovery_addresses ?? [];
  return (
    <Card title="Addresses" testId="identity-addresses-card">
      {verifiable.length === 0 && recovery.length === 0 ? (
        <EmptyState title="No addresses" description="The identity schema marks which traits are verified or used for recovery." />
      ) : (
        <>
          <Table
            caption="Verifiable addresses"
            testId="identity-verifiable-addresses"
            rows={verifiable}
            rowKey={(a) => `${a.via}:${a.value}`}
            columns={[
              { key: 'value', header: 'Address', className: 'col-name', render: (a) => a.value },
              { key: 'via', header: 'Via', render: (a) => a.via },
              {
                key: 'status',
                header: 'Verification',
                render: (a) => <span className={`badge badge-${a.verified ? 'prod' : 'stage'}`}>{a.verified ? `Verified ${a.verified_at ? formatDate(a.verified_at) : ''}`.trim() : a.status === 'sent' ? 'Code sent' : 'Not verified'}</span>,
              },
            ]}
          />
          <Table
            caption="Recovery addresses"
            testId="identity-recovery-addresses"
            rows={recovery}
            rowKey={(a) => `${a.via}:${a.value}`}
            columns={[
              { key: 'value', header: 'Recovery address', className: 'col-name', render: (a) => a.value },
              { key: 'via', header: 'Via', render: (a) => a.via },
            ]}
          />
        </>
      )}
    </Card>
  );
}
