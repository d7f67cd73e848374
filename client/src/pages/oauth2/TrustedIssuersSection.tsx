import { useState } from 'react';
import toast from 'react-hot-toast';
import type { z } from 'zod';
import { formatDate } from '../../../../shared/domain/format';
import { trustIssuerForm } from '../../../../shared/schemas/oauth2';
import { ActionForm, useActionForm } from '../../components/ActionForm';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { ConfirmDialog } from '../../components/Dialog';
import { Pager } from '../../components/Pager';
import { QueryView } from '../../components/QueryView';
import { Table } from '../../components/Table';
import { TextArea, TextField } from '../../components/TextField';
import { errorText } from '../../lib/errors';
import { trpc } from '../../trpc';

type IssuerForm = z.input<typeof trustIssuerForm>;
const EMPTY: IssuerForm = { issuer: '', subject: '', allow_any_subject: false, scope: '', jwk: '', expires_at: '' };

/**
 * Issuers whose signed JWTs the project's OAuth2 server takes as grants (RFC 7523): 25 a page, trusted with
 * their public key, and deleted after confirmation.
 */
export function TrustedIssuersSection({ projectId }: { projectId: string }) {
  const [pages, setPages] = useState<string[]>([]);
  const pageToken = pages.at(-1);
  const [deleting, setDeleting] = useState<{ id: string; issuer: string } | null>(null);
  const list = trpc.oauth2TrustedIssuers.list.useQuery({ projectId, ...(pageToken ? { pageToken } : {}) }, { placeholderData: (previous) => previous });
  const trust = trpc.oauth2TrustedIssuers.trust.useMutation();
  const remove = trpc.oauth2TrustedIssuers.delete.useMutation({ onSuccess: () => (toast.success('The issuer is no longer trusted'), setDeleting(null), setPages([])) });

  const action = useActionForm({
    schema: trustIssuerForm,
    defaultValues: EMPTY,
    onSubmit: (issuer) => trust.mutateAsync({ projectId, issuer }),
    onDone: () => toast.success('Issuer trusted'),
    errorFallback: 'Could not trust the issuer.',
  });
  const { errors } = action.form.formState;

  return (
    <Card title="Trusted JWT issuers" testId="oauth2-trusted-issuers">
      <p className="hint">
        A trusted issuer may exchange a JWT it signed for an access token (the JWT bearer grant), for one subject or any, within the scopes
        named here, until the trust expires.
      </p>
      <QueryView
        query={list}
        skeleton="table"
        errorTitle="The trusted issuers could not be loaded"
        isEmpty={(page) => page.issuers.length === 0 && pages.length === 0}
        empty={{
          testId: 'oauth2-issuers-empty',
          title: 'No trusted issuers',
          description: 'Trust an issuer below when another system should get tokens for your users by presenting JWTs it signed.',
        }}
      >
        {(page) => (
          <>
            <Table
              caption="Trusted JWT issuers"
              testId="oauth2-issuers-table"
              rowKey={(t) => t.id ?? ''}
              rows={page.issuers}
              columns={[
                { key: 'issuer', header: 'Issuer', className: 'col-code', render: (t) => <code>{t.issuer}</code> },
                { key: 'subject', header: 'Subject', render: (t) => (t.allow_any_subject ? <em>Any subject</em> : t.subject) },
                { key: 'scope', header: 'Scopes', render: (t) => t.scope?.join(' ') ?? '' },
                { key: 'kid', header: 'Key ID', className: 'col-code', render: (t) => <code>{t.public_key?.kid}</code> },
                { key: 'expires', header: 'Expires', render: (t) => formatDate(t.expires_at ?? null, { fallback: '' }) },
                {
                  key: 'actions',
                  header: 'Actions',
                  render: (t) => (
                    <Button variant="ghost" onClick={() => t.id && setDeleting({ id: t.id, issuer: t.issuer ?? '' })} data-testid={`oauth2-issuer-delete-${t.issuer}`}>
                      Delete
                    </Button>
                  ),
                },
              ]}
            />
            <Pager
              label="Trusted issuer pages"
              hasPrevious={pages.length > 0}
              nextToken={page.nextPageToken}
              busy={list.isFetching}
              onPrevious={() => setPages(pages.slice(0, -1))}
              onNext={(token) => setPages([...pages, token])}
              testId="oauth2-issuers-pager"
            />
          </>
        )}
      </QueryView>

      <h3>Trust an issuer</h3>
      <ActionForm action={action} testId="oauth2-issuer-trust" submitLabel="Trust issuer">
        <TextField label="Issuer" hint="The iss claim of its JWTs, such as https://jwt-idp.example.com." autoComplete="off" error={errors.issuer?.message} data-testid="oauth2-issuer-issuer" {...action.form.register('issuer')} />
        <TextField label="Subject" hint="The one user (sub claim) it may get tokens for; leave empty when any subject is allowed." autoComplete="off" error={errors.subject?.message} data-testid="oauth2-issuer-subject" {...action.form.register('subject')} />
        <label className="checkbox">
          <input type="checkbox" data-testid="oauth2-issuer-any-subject" {...action.form.register('allow_any_subject')} /> Allow any subject: the issuer
          may get tokens for every user.
        </label>
        <TextField label="Scopes" hint="Space separated: the scopes its tokens may carry." autoComplete="off" error={errors.scope?.message} data-testid="oauth2-issuer-scope" {...action.form.register('scope')} />
        <TextArea
          label="Public key (JWK)"
          hint='The key its JWTs are verified with, as JSON with its kid: {"kty": "RSA", "kid": "…", "n": "…", "e": "AQAB"}.'
          rows={4}
          error={errors.jwk?.message}
          data-testid="oauth2-issuer-jwk"
          {...action.form.register('jwk')}
        />
        <TextField label="Trusted until" type="date" hint="After this day its JWTs are refused." error={errors.expires_at?.message} data-testid="oauth2-issuer-expires" {...action.form.register('expires_at')} />
      </ActionForm>

      <ConfirmDialog
        open={deleting !== null}
        title="Stop trusting this issuer?"
        message={`JWTs from "${deleting?.issuer ?? ''}" are refused from now on, and its key is removed. This cannot be undone.`}
        confirmLabel="Delete trust"
        busy={remove.isPending}
        error={remove.error ? (errorText(remove.error) ?? 'Could not delete the trust relationship.') : undefined}
        onConfirm={() => deleting && remove.mutate({ projectId, id: deleting.id })}
        onClose={() => (setDeleting(null), remove.reset())}
        testId="delete-oauth2-issuer-dialog"
      />
    </Card>
  );
}
