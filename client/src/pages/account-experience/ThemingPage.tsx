import { useState } from 'react';
import toast from 'react-hot-toast';
import { useLocation } from 'wouter';
import { formatDate } from '../../../../shared/domain/format';
import { brandingCreateThemeInput, themeColors, type BrandingTheme } from '../../../../shared/schemas/branding';
import { ActionForm, useActionForm } from '../../components/ActionForm';
import { Button, LinkButton } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Table } from '../../components/Table';
import { TextField } from '../../components/TextField';
import { quotaFailure, UpgradePrompt } from '../../components/UpgradePrompt';
import { errorText } from '../../lib/errors';
import { ROUTES } from '../../routes';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';

const nameSchema = brandingCreateThemeInput.pick({ name: true });

/** A copy of a theme: its colours and images under a new name. */
const copyOf = (theme: BrandingTheme) => ({
  name: `${theme.name} copy`.slice(0, 64),
  ...(theme.logo_url ? { logo_url: theme.logo_url } : {}),
  ...(theme.logo_type ? { logo_type: theme.logo_type } : {}),
  ...(theme.favicon_url ? { favicon_url: theme.favicon_url } : {}),
  ...(theme.favicon_type ? { favicon_type: theme.favicon_type } : {}),
  ...themeColors(theme),
});

/**
 * /projects/{project}/account-experience/theming: the project's themes, the one its hosted pages wear, and
 * new, activate, duplicate and delete (after a confirmation). The oldest theme is the built-in one, which
 * stays.
 */
export default function ThemingPage() {
  const project = useProject();
  const projectId = project.id;
  const [, navigate] = useLocation();
  const branding = trpc.branding.get.useQuery({ projectId });
  const quota = trpc.quota.get.useQuery({ projectId, feature: 'branding_themes' });
  const [creating, setCreating] = useState(false);
  const [refused, setRefused] = useState(false);
  const [deleting, setDeleting] = useState<BrandingTheme | null>(null);
  const create = trpc.branding.createTheme.useMutation();
  const failed = (context: string) => (error: unknown) => {
    if (quotaFailure(error)) {
      setRefused(true);
      void quota.refetch();
    } else toast.error(`${context}: ${errorText(error) ?? 'please try again.'}`);
  };
  const activate = trpc.branding.activate.useMutation({ onSuccess: (b) => toast.success(`“${b.default_theme.name}” is now the theme of the hosted pages`), onError: failed('Could not activate the theme') });
  const deactivate = trpc.branding.deactivate.useMutation({ onSuccess: () => toast.success('The hosted pages are back to the default look'), onError: failed('Could not change the theme') });
  const duplicate = trpc.branding.createTheme.useMutation({ onSuccess: (t) => toast.success(`Theme “${t.name}” created`), onError: failed('Could not duplicate the theme') });
  const remove = trpc.branding.deleteTheme.useMutation({
    onSuccess: () => {
      toast.success('Theme deleted');
      setDeleting(null);
    },
  });
  const action = useActionForm({
    schema: nameSchema,
    defaultValues: { name: '' },
    onSubmit: ({ name }) => create.mutateAsync({ projectId, name }),
    onDone: (theme) => {
      setCreating(false);
      navigate(`${ROUTES.themingCustomize.build({ project: projectId })}?theme=${theme.id}`);
    },
    errorFallback: 'Could not create the theme.',
    reportsError: (error) => {
      if (!quotaFailure(error)) return false;
      setCreating(false);
      setRefused(true);
      void quota.refetch();
      return true;
    },
  });
  const closeCreate = () => {
    setCreating(false);
    action.reset();
  };
  const baseId = branding.data?.themes[0]?.id;
  const activeId = branding.data?.default_theme.id;
  const customize = (themeId: string) => `${ROUTES.themingCustomize.build({ project: projectId })}?theme=${themeId}`;

  return (
    <div className="page" data-testid="theming-page">
      <PageHeader
        title="Theming"
        description="Themes set the colours, logo and favicon of the project's hosted pages. One theme is active at a time; the next page load wears it."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)} data-testid="theme-new">
            New theme
          </Button>
        }
      />
      {refused && quota.data && <UpgradePrompt feature="branding_themes" units={quota.data.used + 1} workspaceId={project.workspace_id ?? null} projectId={projectId} />}
      <Card title="Themes" testId="themes-card">
        <QueryView query={branding} skeleton="table" errorTitle="The themes could not be loaded">
          {(b) => (
            <Table
              caption="Themes"
              testId="themes-table"
              rowKey={(t) => t.id}
              rows={b.themes}
              columns={[
                {
                  key: 'name',
                  header: 'Name',
                  className: 'col-name',
                  render: (t) => (
                    <>
                      {t.name}{' '}
                      {t.id === activeId && (
                        <span className="badge badge-prod" data-testid={`theme-active-${t.name}`}>
                          Active
                        </span>
                      )}{' '}
                      {t.id === baseId && <span className="badge">Built-in</span>}
                    </>
                  ),
                },
                {
                  key: 'colors',
                  header: 'Colours',
                  render: (t) => {
                    const c = themeColors(t);
                    const swatches = [c.primary_color, c.background_canvas_color, c.foreground_default_color].filter(Boolean);
                    return swatches.length ? (
                      <span className="swatches" aria-label={swatches.join(', ')}>
                        {swatches.map((s) => (
                          <span key={s} className="swatch" style={{ background: s }} />
                        ))}
                      </span>
                    ) : (
                      'Default'
                    );
                  },
                },
                { key: 'updated', header: 'Updated', render: (t) => formatDate(t.updated_at) },
                {
                  key: 'actions',
                  header: 'Actions',
                  render: (t) => (
                    <span className="row-actions">
                      {t.id === activeId ? (
                        t.id !== baseId && (
                          <Button variant="ghost" busy={deactivate.isPending} onClick={() => deactivate.mutate({ projectId })} data-testid={`theme-deactivate-${t.name}`}>
                            Deactivate
                          </Button>
                        )
                      ) : (
                        <Button variant="ghost" busy={activate.isPending && activate.variables?.themeId === t.id} onClick={() => activate.mutate({ projectId, themeId: t.id })} data-testid={`theme-activate-${t.name}`}>
                          Activate
                        </Button>
                      )}
                      <LinkButton href={customize(t.id)} variant="ghost" data-testid={`theme-customize-${t.name}`}>
                        Customize
                      </LinkButton>
                      <Button variant="ghost" busy={duplicate.isPending && duplicate.variables?.name === copyOf(t).name} onClick={() => duplicate.mutate({ projectId, ...copyOf(t) })} data-testid={`theme-duplicate-${t.name}`}>
                        Duplicate
                      </Button>
                      {t.id !== baseId && (
                        <Button variant="ghost" onClick={() => setDeleting(t)} data-testid={`theme-delete-${t.name}`}>
                          Delete
                        </Button>
                      )}
                    </span>
                  ),
                },
              ]}
            />
          )}
        </QueryView>
      </Card>

      <Dialog
        open={creating}
        onClose={closeCreate}
        title="New theme"
        testId="theme-new-dialog"
        footer={
          <>
            <Button onClick={closeCreate}>Cancel</Button>
            <Button variant="primary" type="submit" form={action.id} busy={action.busy} data-testid="theme-new-submit">
              Create and customize
            </Button>
          </>
        }
      >
        <ActionForm action={action} testId="theme-new-form">
          <TextField label="Name" autoComplete="off" error={action.form.formState.errors.name?.message} data-testid="theme-new-name" required {...action.form.register('name')} />
        </ActionForm>
      </Dialog>

      <ConfirmDialog
        open={deleting !== null}
        title="Delete this theme?"
        message={
          deleting?.id === activeId
            ? `“${deleting?.name ?? ''}” is the active theme: the hosted pages go back to the default look. This cannot be undone.`
            : `“${deleting?.name ?? ''}” is deleted with its colours and images. This cannot be undone.`
        }
        confirmLabel="Delete theme"
        busy={remove.isPending}
        error={remove.error ? (errorText(remove.error) ?? 'Could not delete the theme.') : undefined}
        onConfirm={() => deleting && remove.mutate({ projectId, themeId: deleting.id })}
        onClose={() => (setDeleting(null), remove.reset())}
        testId="theme-delete-dialog"
      />
    </div>
  );
}
