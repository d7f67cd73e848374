import { useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import type { SchemaProblem } from '../../../../shared/schemas/identity-schemas';
import { Button } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { ConfirmDialog } from '../../components/Dialog';
import { JsonEditor } from '../../components/JsonEditor';
import { QueryView } from '../../components/QueryView';
import { TextField } from '../../components/TextField';
import { errorText } from '../../lib/errors';
import { useUnsavedChangesGuard } from '../../lib/navigation-guard';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { SchemaForm } from '../identities/SchemaForm';
import { useDebounced } from '../../lib/use-debounced';
import { useSchemaPreview } from './schema-editing';

type Draft = { kind: 'new'; from: string } | { kind: 'edit'; id: string };
type DefaultChoice = { id: string; label: string };

/**
 * /projects/{project}/identity-schema: the project's identity schemas — what its identity service uses (the
 * default marked), its custom schemas and Ory's presets; a JSON editor checked as you type (problems at their
 * line), a live preview of the form the schema produces, and setting the default with a confirmation.
 */
export default function IdentitySchemaPage() {
  const project = useProject();
  const projectId = project.id;
  const list = trpc.schemas.list.useQuery({ projectId });
  const [draft, setDraft] = useState<Draft | null>(null);
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [choice, setChoice] = useState<DefaultChoice | null>(null);
  // What the editor held when opened or last saved: anything else is an unsaved change.
  const [baseline, setBaseline] = useState({ name: '', text: '' });
  useUnsavedChangesGuard(draft !== null && (name !== baseline.name || text !== baseline.text));
  const editorRef = useRef<HTMLDivElement>(null);
  const setDefault = trpc.schemas.setDefault.useMutation();

  /** Opens the editor on a schema's text: a saved schema's as its author wrote it, a preset's laid out. */
  const open = (next: Draft, nextName: string, schemaText: string) => {
    const initial = schemaText.endsWith('\n') ? schemaText : `${schemaText}\n`;
    setDraft(next);
    setName(nextName);
    setText(initial);
    setBaseline({ name: nextName, text: initial });
    requestAnimationFrame(() => editorRef.current?.querySelector<HTMLElement>('input')?.focus());
  };

  const utils = trpc.useUtils();
  const [loading, setLoading] = useState<string | null>(null);
  /** Opens a saved schema as it is stored now (its own read, not the list's copy, which may be older). */
  const edit = (schemaId: string) => {
    if (loading) return;
    setLoading(schemaId);
    utils.schemas.get
      .fetch({ projectId, schemaId }, { staleTime: 0 })
      .then((schema) => open({ kind: 'edit', id: schema.id }, schema.name, schema.text))
      .catch((error: unknown) => toast.error(errorText(error) ?? 'The identity schema could not be loaded.'))
      .finally(() => setLoading(null));
  };

  const confirmDefault = () => {
    if (!choice || setDefault.isPending) return;
    setDefault.mutate(
      { projectId, schemaId: choice.id },
      {
        onSuccess: () => {
          toast.success(`“${choice.label}” is now the default identity schema.`);
          setChoice(null);
        },
      },
    );
  };

  return (
    <div className="page" data-testid="identity-schema-page">
      <PageHeader
        title="Identity schema"
        description="The identity schema defines the traits every identity of this project carries, which of them sign in, and which are verified or used for recovery."
      />
      <QueryView query={list} errorTitle="The identity schemas could not be loaded" skeleton="card">
        {(data) => {
          const defaultLabel = (id: string) =>
            data.managed.find((m) => m.id === id)?.name ?? data.presets.find((p) => p.id === id)?.title ?? id;
          return (
            <div className="stack">
              <Card title="In use" testId="schemas-active">
                <ul className="plain-list">
                  {data.active.map((s) => (
                    <li key={s.id} data-testid="active-schema">
                      <strong>{defaultLabel(s.id)}</strong> <code>{s.id}</code>{' '}
                      {s.id === data.defaultId && (
                        <span className="badge badge-default" data-testid="default-badge">
                          Default
                        </span>
                      )}
                    </li>
                  ))}
                </ul>
              </Card>
              <Card title="Custom schemas" testId="schemas-managed">
                {data.managed.length === 0 ? (
                  <p className="muted" data-testid="schemas-empty">
                    This project has no custom schemas yet. Start one from a preset below.
                  </p>
                ) : (
                  <ul className="plain-list">
                    {data.managed.map((m) => (
                      <li key={m.id} data-testid="managed-schema">
                        <strong>{m.name}</strong>{' '}
                        {m.id === data.defaultId && (
                          <span className="badge badge-default" data-testid="default-badge">
                            Default
                          </span>
                        )}{' '}
                        <Button variant="ghost" busy={loading === m.id} onClick={() => edit(m.id)} data-testid="edit-schema">
                          Edit
                        </Button>
                        {m.id !== data.defaultId && (
                          <Button variant="ghost" onClick={() => setChoice({ id: m.id, label: m.name })} data-testid="set-default">
                            Set as default
                          </Button>
                        )}
                      </li>
                    ))}
                  </ul>
                )}
              </Card>
              <Card title="Presets" testId="schemas-presets">
                <ul className="plain-list">
                  {data.presets.map((p) => (
                    <li key={p.id} data-testid="preset-schema" data-preset={p.id}>
                      <strong>{p.title}</strong> <code>{p.id}</code>{' '}
                      {p.id === data.defaultId && <span className="badge badge-default">Default</span>}{' '}
                      <Button variant="ghost" onClick={() => open({ kind: 'new', from: p.id }, `${p.title} (custom)`, JSON.stringify(p.schema, null, 2))} data-testid="start-from-preset">
                        Start from this preset
                      </Button>
                      {p.id !== data.defaultId && (
                        <Button variant="ghost" onClick={() => setChoice({ id: p.id, label: p.title })} data-testid="set-default">
                          Set as default
                        </Button>
                      )}
                    </li>
                  ))}
                </ul>
              </Card>
              {draft && (
                <div ref={editorRef}>
                  <SchemaEditor
                    key={draft.kind === 'edit' ? draft.id : draft.from}
                    projectId={projectId}
                    draft={draft}
                    name={name}
                    onName={setName}
                    text={text}
                    onText={setText}
                    onSaved={(id, saved) => {
                      setBaseline(saved);
                      setDraft({ kind: 'edit', id });
                    }}
                    onClose={() => setDraft(null)}
                  />
                </div>
              )}
            </div>
          );
        }}
      </QueryView>
      <ConfirmDialog
        open={choice !== null}
        title="Make this the default identity schema?"
        message={
          choice && (
            <>
              <p>
                Self-service registration and new identities will use “{choice.label}”, and identities that follow the default schema will be
                checked against it.
              </p>
              <p>If any existing identity would no longer match it, nothing changes and you are told how many.</p>
            </>
          )
        }
        confirmLabel="Set as default"
        variant="primary"
        busy={setDefault.isPending}
        error={setDefault.isError ? (errorText(setDefault.error) ?? 'The default schema could not be changed.') : undefined}
        onConfirm={confirmDefault}
        onClose={() => {
          setChoice(null);
          setDefault.reset();
        }}
        testId="set-default-dialog"
      />
    </div>
  );
}

function SchemaEditor(props: {
  projectId: string;
  draft: Draft;
  name: string;
  onName: (name: string) => void;
  text: string;
  onText: (text: string) => void;
  onSaved: (id: string, saved: { name: string; text: string }) => void;
  onClose: () => void;
}) {
  const { projectId, draft, name, text } = props;
  const settled = useDebounced(text, 400);
  const validate = trpc.schemas.validate.useMutation();
  const [checked, setChecked] = useState<{ text: string; problems: SchemaProblem[] } | null>(null);
  const create = trpc.schemas.create.useMutation();
  const update = trpc.schemas.update.useMutation();
  const saving = create.isPending || update.isPending;
  const saveError = create.error ?? update.error;
  const preview = useSchemaPreview(text);

  useEffect(() => {
    let current = true;
    validate.mutateAsync({ projectId, schema: settled }).then(
      (result) => current && setChecked({ text: settled, problems: result.problems }),
      () => current && setChecked(null),
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [projectId, settled]);

  const upToDate = checked?.text === text;
  const problems = upToDate ? checked.problems : [];

  const save = () => {
    if (saving) return;
    const onSuccess = (saved: { id: string; name: string }) => {
      toast.success(`Saved “${saved.name}”.`);
      props.onSaved(saved.id, { name, text });
    };
    if (draft.kind === 'new') create.mutate({ projectId, name, schema: text }, { onSuccess });
    else update.mutate({ projectId, schemaId: draft.id, name, schema: text }, { onSuccess });
  };

  return (
    <div className="editor-split">
      <Card title={draft.kind === 'new' ? 'New identity schema' : 'Edit identity schema'} testId="schema-editor">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            save();
          }}
        >
          <TextField label="Name" value={name} onChange={(e) => props.onName(e.target.value)} required maxLength={128} data-testid="schema-name" />
          <JsonEditor
            label="JSON schema"
            value={text}
            onChange={props.onText}
            problems={problems}
            minHeight="320px"
            hint="Checked against Ory's identity meta-schema as you type."
            testId="schema-json"
          />
          <MetaSchema />
          <div aria-live="polite" data-testid="schema-status">
            {!upToDate ? (
              <p className="muted">Checking…</p>
            ) : problems.length === 0 ? (
              <p className="field-hint" data-testid="schema-valid">
                The schema is valid.
              </p>
            ) : (
              <ul className="field-error" data-testid="schema-problems">
                {problems.map((p, i) => (
                  <li key={i} data-testid="schema-problem" data-line={p.line}>
                    Line {p.line}, column {p.column}: {p.message}
                  </li>
                ))}
              </ul>
            )}
          </div>
          {saveError && (
            <p className="field-error" role="alert" data-testid="schema-save-error">
              {errorText(saveError) ?? 'The schema could not be saved.'}
            </p>
          )}
          <div className="form-actions">
            <Button type="submit" variant="primary" busy={saving} disabled={saving || name.trim() === ''} data-testid="save-schema">
              {draft.kind === 'new' ? 'Create schema' : 'Save schema'}
            </Button>
            <Button type="button" onClick={props.onClose} data-testid="close-editor">
              Close
            </Button>
          </div>
        </form>
      </Card>
      <Card title="Preview" testId="schema-preview">
        {preview.schema ? (
          <SchemaForm identitySchema={preview.schema} traits={preview.traits} onChange={preview.setTraits} errors={{}} testId="schema-preview-form" />
        ) : (
          <p className="muted">The preview shows once the text is a JSON object with traits.</p>
        )}
      </Card>
    </div>
  );
}

/** Ory's identity meta-schema, what the editor checks against: loaded when the reader opens it. */
function MetaSchema() {
  const [shown, setShown] = useState(false);
  const meta = trpc.schemas.metaSchema.useQuery(undefined, { enabled: shown, staleTime: Infinity });
  return (
    <details className="meta-schema" onToggle={(e) => setShown(e.currentTarget.open)} data-testid="meta-schema">
      <summary>What the schema is checked against: Ory's identity meta-schema</summary>
      <QueryView query={meta} skeleton="card" errorTitle="The meta-schema could not be loaded">
        {(schema) => (
          <pre className="preview-text" data-testid="meta-schema-text">
            {JSON.stringify(schema, null, 2)}
          </pre>
        )}
      </QueryView>
    </details>
  );
}
