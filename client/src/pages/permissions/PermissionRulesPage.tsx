import { useEffect, useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import { DOCUMENTS_AND_FOLDERS, ORGANIZATIONS_AND_TEAMS } from '../../../../shared/permissions/templates';
import { permissionFeatureFlagsForm, type NamespaceOverview, type PermissionFeatureFlags } from '../../../../shared/schemas/relationships';
import { Button } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { ConfirmDialog } from '../../components/Dialog';
import { OplEditor } from '../../components/OplEditor';
import { QueryView } from '../../components/QueryView';
import { SettingsForm } from '../../components/SettingsForm';
import { errorText, isConflict } from '../../lib/errors';
import { useUnsavedChangesGuard } from '../../lib/navigation-guard';
import { useDebounced } from '../../lib/use-debounced';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';

const TEMPLATES = [
  { id: 'documents', label: 'Documents and folders', text: DOCUMENTS_AND_FOLDERS },
  { id: 'organizations', label: 'Organizations and teams', text: ORGANIZATIONS_AND_TEAMS },
] as const;

/** What the rules declare: each namespace with its relations (what they point at) and permissions (their rule). */
export function NamespaceOverviewList({ namespaces }: { namespaces: readonly NamespaceOverview[] }) {
  if (namespaces.length === 0) return <p className="muted">No namespaces yet: the rules declare them as classes.</p>;
  return (
    <ul className="stack" data-testid="rules-overview">
      {namespaces.map((n) => (
        <li key={n.name} data-testid="rules-namespace">
          <strong>{n.name}</strong>
          {n.relations.length === 0 ? (
            <span className="muted"> — no relations</span>
          ) : (
            <ul>
              {n.relations.map((r) => (
                <li key={r.name}>
                  <code>{r.name}</code> <span className={`badge badge-${r.kind === 'relation' ? 'dev' : 'prod'}`}>{r.kind}</span>{' '}
                  <span className="muted">{r.kind === 'relation' ? `→ ${r.types.join(' | ')}` : r.rule}</span>
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * /projects/{project}/permissions/configuration: the project's permission rules in the Ory Permission Language,
 * checked by the permission service as you type (problems at their lines), the namespaces and relations they
 * declare, templates to start from, and an unsaved-changes guard.
 */
/** Keto's feature flags of the project's permission service, saved on the revision they were read from. */
function FeatureFlagsForm({ projectId, flags, revisionId }: { projectId: string; flags: PermissionFeatureFlags; revisionId: string | null }) {
  const utils = trpc.useUtils();
  const save = trpc.permissionRules.setFeatureFlags.useMutation({ onSuccess: (saved) => utils.permissionRules.get.setData({ projectId }, saved) });
  return (
    <SettingsForm
      schema={permissionFeatureFlagsForm}
      values={flags}
      testId="permission-flags-form"
      submitLabel="Save checking options"
      errorContext="Could not save the checking options"
      onSave={async (changes) => (await save.mutateAsync({ projectId, ...changes, ...(revisionId ? { revisionId } : {}) })).featureFlags}
      onSaved={() => toast.success('Checking options saved')}
      reload={async () => (await utils.permissionRules.get.fetch({ projectId }, { staleTime: 0 })).featureFlags}
    >
      {(form) => (
        <>
          <label className="checkbox">
            <input type="checkbox" data-testid="permission-strict-mode" {...form.register('strict_mode')} /> Strict mode: a permission is only ever
            derived from its rule (a relationship written directly under a permission is ignored), and subject sets count only for the types a
            relation declares.
          </label>
          <label className="checkbox">
            <input type="checkbox" data-testid="permission-expand-rewrites" {...form.register('expand_rewrites')} /> Expand rewrites: expanding a
            permission follows its rule and shows the relationships it derives from, rather than only the relationships written under it.
          </label>
        </>
      )}
    </SettingsForm>
  );
}

export default function PermissionRulesPage() {
  const project = useProject();
  const projectId = project.id;
  const rules = trpc.permissionRules.get.useQuery({ projectId });
  const [text, setText] = useState<string | null>(null);
  const [template, setTemplate] = useState<(typeof TEMPLATES)[number] | null>(null);
  const saved = rules.data?.opl ?? '';
  const current = text ?? saved;
  const dirty = text !== null && text !== saved;
  useUnsavedChangesGuard(dirty);

  const debounced = useDebounced(current, 400);
  const validation = trpc.permissionRules.validate.useQuery({ projectId, opl: debounced }, { enabled: rules.isSuccess && debounced.trim() !== '', placeholderData: (p) => p });
  const upToDate = debounced === current && !validation.isPlaceholderData;
  const problems = useMemo(() => (current.trim() === '' ? [] : (validation.data?.problems ?? [])), [current, validation.data]);
  const overview = validation.data?.valid ? validation.data.namespaces : (rules.data?.namespaces ?? []);

  const set = trpc.permissionRules.set.useMutation({
    onSuccess: (_answer, saved) => {
      toast.success('Permission rules saved');
      // What was typed while the save was on its way stays in the editor.
      setText((typed) => (typed === saved.opl ? null : typed));
    },
  });
  useEffect(() => {
    if (set.error && isConflict(set.error)) void rules.refetch();
  }, [set.error, rules]);

  return (
    <div className="page" data-testid="permission-rules-page">
      <PageHeader
        title="Permission rules"
        description="Namespaces and the rules that turn relationships into permissions, in the Ory Permission Language (a subset of TypeScript)."
      />
      <QueryView query={rules} skeleton="card" errorTitle="The permission rules could not be loaded">
        {(loaded) => (
          <>
            <Card testId="rules-editor-card" title="Rules">
              <div className="form-actions">
                {TEMPLATES.map((t) => (
                  <Button key={t.id} onClick={() => (current.trim() === '' ? setText(t.text) : setTemplate(t))} data-testid={`rules-template-${t.id}`}>
                    Start from “{t.label}”
                  </Button>
                ))}
              </div>
              <OplEditor label="Permission rules (Ory Permission Language)" value={current} onChange={setText} problems={problems} testId="rules-editor" />
              <div role="status" aria-live="polite" data-testid="rules-status">
                {current.trim() === '' ? (
                  <p className="muted">No rules yet: start from a template, or declare a class per namespace.</p>
                ) : !upToDate ? (
                  <p className="muted">Checking…</p>
                ) : problems.length === 0 ? (
                  <p>No problems found.</p>
                ) : (
                  <ul className="field-error" data-testid="rules-problems">
                    {problems.map((p) => (
                      <li key={`${p.line}:${p.column}:${p.message}`}>
                        Line {p.line}, column {p.column}: {p.message}
                      </li>
                    ))}
                  </ul>
                )}
              </div>
              {set.error && (
                <p className="field-error" role="alert">
                  {isConflict(set.error) ? 'The rules changed since you opened them; they are reloaded — review and save again.' : (errorText(set.error) ?? 'The rules could not be saved.')}
                </p>
              )}
              <div className="form-actions">
                <Button
                  variant="primary"
                  busy={set.isPending}
                  disabled={!dirty || problems.length > 0 || !upToDate}
                  onClick={() => set.mutate({ projectId, opl: current, ...(rules.data?.revisionId ? { revisionId: rules.data.revisionId } : {}) })}
                  data-testid="rules-save"
                >
                  Save rules
                </Button>
                {dirty && (
                  <Button variant="ghost" onClick={() => setText(null)} data-testid="rules-discard">
                    Discard changes
                  </Button>
                )}
              </div>
            </Card>
            <Card testId="rules-overview-card" title="Namespaces and relations">
              <NamespaceOverviewList namespaces={overview} />
            </Card>
            <Card testId="rules-flags-card" title="How checks are answered">
              <FeatureFlagsForm projectId={projectId} flags={loaded.featureFlags} revisionId={loaded.revisionId} />
            </Card>
          </>
        )}
      </QueryView>
      <ConfirmDialog
        open={template !== null}
        title="Replace the rules in the editor?"
        message={`The editor's text is replaced by the “${template?.label ?? ''}” template. Nothing is saved until you save.`}
        confirmLabel="Replace"
        onConfirm={() => {
          if (template) setText(template.text);
          setTemplate(null);
        }}
        onClose={() => setTemplate(null)}
        testId="rules-template-dialog"
      />
    </div>
  );
}
