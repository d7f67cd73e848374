import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { jsonPatchSchema, projectConfigurationSchema } from '../../../../shared/schemas/project';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { QueryView } from '../../components/QueryView';
import { Tabs } from '../../components/Tabs';
import { TextArea } from '../../components/TextField';
import { errorText } from '../../lib/errors';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';

const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** The JSON in `text` read with `schema`: the value, or one sentence saying what to fix. */
function parseWith<T>(text: string, schema: { safeParse: (v: unknown) => { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } }): { value: T } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { error: `This is not valid JSON: ${(err as Error).message}` };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { value: parsed.data };
  const issue = parsed.error.issues[0];
  return { error: issue ? `${issue.path.length ? `${issue.path.map(String).join('.')}: ` : ''}${issue.message}` : 'The JSON does not have the expected shape.' };
}

/** Edits one JSON document and saves it with `onSave`; the error shown is the parse's or the server's. */
function JsonForm(props: { label: string; hint: string; initial: string; submitLabel: string; busy: boolean; serverError: string | undefined; onSave: (text: string) => string | null; testId: string }) {
  const [text, setText] = useState(props.initial);
  const [localError, setLocalError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (props.busy) return;
    setLocalError(props.onSave(text));
  };
  return (
    <form onSubmit={submit} noValidate data-testid={props.testId}>
      <TextArea label={props.label} hint={props.hint} rows={14} spellCheck={false} value={text} onChange={(e) => setText(e.target.value)} error={localError ?? props.serverError} data-testid={`${props.testId}-text`} />
      <div className="form-actions form-actions-start">
        <Button type="submit" variant="primary" busy={props.busy} data-testid={`${props.testId}-submit`}>
          {props.submitLabel}
        </Button>
      </div>
    </form>
  );
}

/**
 * The project's configuration as a whole, for what the settings pages do not cover: the full configuration
 * (replaced as one document from the revision it was read at), a JSON patch of it, and the normalized revision.
 */
export function ConfigurationCard() {
  const project = useProject();
  const projectId = project.id;
  const configuration = trpc.projects.configuration.useQuery({ projectId });
  const replace = trpc.projects.replace.useMutation();
  const patch = trpc.projects.patch.useMutation();
  const replaceNormalized = trpc.projects.replaceNormalized.useMutation();
  const utils = trpc.useUtils();
  const saved = (what: string) => () => toast.success(what);
  const warned = (answer: { warnings: { message?: string | undefined }[] }) => {
    for (const w of answer.warnings) if (w.message) toast(w.message);
  };

  return (
    <Card title="Configuration" testId="configuration-card">
      <p className="card-text">The whole configuration of the project as JSON, for settings these pages do not show yet.</p>
      <QueryView query={configuration} skeleton="card" errorTitle="The configuration could not be loaded">
        {(config) => {
          const editable = { name: config.name, services: config.services, cors_admin: config.cors_admin, cors_public: config.cors_public };
          const { id: _id, project_id: _project, created_at: _created, updated_at: _updated, ...revision } = project.current_revision;
          return (
            <Tabs
              label="Configuration form"
              testId="configuration-tabs"
              items={[
                {
                  value: 'document',
                  label: 'Configuration',
                  content: (
                    <JsonForm
                      key={config.revision_id}
                      label="Configuration"
                      hint="Name, services and CORS. Saving replaces the configuration as shown; a change made elsewhere in between is refused."
                      initial={pretty(editable)}
                      submitLabel="Save configuration"
                      busy={replace.isPending}
                      serverError={replace.error ? (errorText(replace.error) ?? 'The configuration could not be saved.') : undefined}
                      testId="configuration-document"
                      onSave={(text) => {
                        const parsed = parseWith(text, projectConfigurationSchema);
                        if ('error' in parsed) return parsed.error;
                        replace.mutate({ projectId, revisionId: config.revision_id, configuration: parsed.value }, { onSuccess: (answer) => { warned(answer); saved('Configuration saved.')(); } });
                        return null;
                      }}
                    />
                  ),
                },
                {
                  value: 'patch',
                  label: 'JSON patch',
                  content: (
                    <JsonForm
                      label="JSON patch (RFC 6902)"
                      hint='Operations on /name, /services/…, /cors_admin or /cors_public, e.g. [{"op": "replace", "path": "/cors_public/enabled", "value": true}].'
                      initial={'[\n  \n]\n'}
                      submitLabel="Apply patch"
                      busy={patch.isPending}
                      serverError={patch.error ? (errorText(patch.error) ?? 'The patch could not be applied.') : undefined}
                      testId="configuration-patch"
                      onSave={(text) => {
                        const parsed = parseWith(text, jsonPatchSchema);
                        if ('error' in parsed) return parsed.error;
                        patch.mutate({ projectId, patch: parsed.value }, { onSuccess: (answer) => { warned(answer); saved('Patch applied.')(); } });
                        return null;
                      }}
                    />
                  ),
                },
                {
                  value: 'normalized',
                  label: 'Normalized',
                  content: (
                    <JsonForm
                      key={String(project.current_revision.id)}
                      label="Normalized revision"
                      hint="The same configuration as one flat list of fields. Saving makes it the project's new revision."
                      initial={pretty(revision)}
                      submitLabel="Save revision"
                      busy={replaceNormalized.isPending}
                      serverError={replaceNormalized.error ? (errorText(replaceNormalized.error) ?? 'The revision could not be saved.') : undefined}
                      testId="configuration-normalized"
                      onSave={(text) => {
                        const parsed = parseWith(text, projectConfigurationSchema.pick({ name: true }).loose());
                        if ('error' in parsed) return parsed.error;
                        const revisionId = typeof project.current_revision.id === 'string' ? project.current_revision.id : undefined;
                        replaceNormalized.mutate(
                          { projectId, revision: parsed.value, ...(revisionId ? { revisionId } : {}) },
                          {
                            onSuccess: (updated) => {
                              utils.projects.get.setData({ projectId }, updated);
                              saved('Revision saved.')();
                            },
                          },
                        );
                        return null;
                      }}
                    />
                  ),
                },
              ]}
            />
          );
        }}
      </QueryView>
    </Card>
  );
}
