import { useState } from 'react';
import toast from 'react-hot-toast';
import { templateForm, type TemplateFormValues, type TemplateOutput } from '../../../../shared/schemas/messaging';
import { templateLabel, type TemplateName, type TemplateVariant } from '../../../../shared/domain/email-templates';
import { Button } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { ConfirmDialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { SettingsForm } from '../../components/SettingsForm';
import { Tabs } from '../../components/Tabs';
import { TextArea, TextField } from '../../components/TextField';
import { errorText } from '../../lib/errors';
import { confirmLeaving } from '../../lib/navigation-guard';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { useUrlState } from '../../lib/use-url-state';
import { previewOf } from './preview';

function Preview({ values, variables }: { values: TemplateFormValues; variables: readonly string[] }) {
  const preview = previewOf(values, variables);
  if (!preview.ok) {
    return (
      <p className="form-error" role="alert" data-testid="template-preview-error">
        This template cannot be saved until it renders: {preview.reason}
      </p>
    );
  }
  return (
    <div data-testid="template-preview">
      <p>
        <strong>Subject:</strong> <span data-testid="template-preview-subject">{preview.rendered.subject}</span>
      </p>
      <Tabs
        label="Preview"
        testId="template-preview-tabs"
        items={[
          {
            value: 'plaintext',
            label: 'Plain text',
            content: (
              <pre className="preview-text" data-testid="template-preview-plaintext">
                {preview.rendered.plaintext}
              </pre>
            ),
          },
          {
            value: 'html',
            label: 'HTML',
            // The HTML runs with no script, no forms and no same-origin access.
            content: <iframe className="preview-frame" sandbox="" title="HTML preview with sample data" srcDoc={preview.rendered.html} data-testid="template-preview-html" />,
          },
        ]}
      />
    </div>
  );
}

function TemplateEditor({ projectId, template }: { projectId: string; template: TemplateOutput }) {
  const utils = trpc.useUtils();
  const ref = { projectId, template: template.template, variant: template.variant };
  const save = trpc.messaging.setTemplate.useMutation({ onSuccess: (saved) => utils.messaging.getTemplate.setData(ref, saved) });
  const reset = trpc.messaging.resetTemplate.useMutation({
    onSuccess: (saved) => {
      utils.messaging.getTemplate.setData(ref, saved);
      setResetting(false);
      toast.success('Template reset to the default');
    },
  });
  const [resetting, setResetting] = useState(false);
  const variables = template.variables.map((v) => v.name);
  const values: TemplateFormValues = { subject: template.subject, html: template.html, plaintext: template.plaintext };

  return (
    <>
      <p className="card-text">
        {template.custom ? 'This project sends its own version of this message.' : 'This project sends the default message.'} Insert a variable as{' '}
        <code>{'{{ .Name }}'}</code>:
      </p>
      <ul className="variables" aria-label="Variables" data-testid="template-variables">
        {template.variables.map((v) => (
          <li key={v.name} className="badge" title={v.description}>
            <code>{`{{ .${v.name} }}`}</code> — {v.description}
          </li>
        ))}
      </ul>
      <SettingsForm
        key={`${template.template}.${template.variant}.${template.custom}`}
        schema={templateForm}
        values={values}
        testId="template-form"
        submitLabel="Save template"
        errorContext="Could not save the template"
        canSave={(v) => previewOf(v, variables).ok}
        onSave={async (_changes, all) => save.mutateAsync({ ...ref, ...all })}
        onSaved={() => toast.success('Template saved')}
        reload={async () => {
          const latest = await utils.messaging.getTemplate.fetch(ref, { staleTime: 0 });
          return { subject: latest.subject, html: latest.html, plaintext: latest.plaintext };
        }}
      >
        {(form) => (
          // The preview sits beside the fields where the screen has room, below them otherwise.
          <div className="editor-split" data-testid="template-editor-split">
            <div className="form">
              <TextField label="Subject" autoComplete="off" error={form.formState.errors.subject?.message} data-testid="template-subject" {...form.register('subject')} />
              <TextArea label="HTML body" rows={10} spellCheck={false} error={form.formState.errors.html?.message} data-testid="template-html" {...form.register('html')} />
              <TextArea label="Plain-text body" rows={6} error={form.formState.errors.plaintext?.message} data-testid="template-plaintext" {...form.register('plaintext')} />
            </div>
            <Card title="Preview with sample data" testId="template-preview-card">
              <Preview values={form.watch()} variables={variables} />
            </Card>
          </div>
        )}
      </SettingsForm>
      {template.custom && (
        <div className="form-actions">
          <Button variant="danger" onClick={() => setResetting(true)} data-testid="template-reset">
            Reset to default
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={resetting}
        title="Reset this template to the default?"
        message="Your subject and bodies of this message are removed; the project sends the default text from now on."
        confirmLabel="Reset to default"
        busy={reset.isPending}
        error={reset.error ? (errorText(reset.error) ?? 'The template could not be reset.') : undefined}
        onConfirm={() => reset.mutate(ref)}
        onClose={() => (setResetting(false), reset.reset())}
        testId="template-reset-dialog"
      />
    </>
  );
}

/** /projects/{project}/email-templates: each message the identity service sends, its variants, variables and a live preview. */
export default function EmailTemplatesPage() {
  const project = useProject();
  const projectId = project.id;
  const list = trpc.messaging.templates.useQuery({ projectId });
  const [url, setUrl] = useUrlState(['template', 'variant'] as const);
  const chosen = list.data?.find((t) => t.template === url.template && t.variant === url.variant) ?? list.data?.[0];
  const template = trpc.messaging.getTemplate.useQuery(
    { projectId, template: (chosen?.template ?? 'recovery_code') as TemplateName, variant: (chosen?.variant ?? 'valid') as TemplateVariant },
    { enabled: chosen !== undefined },
  );

  return (
    <div className="page" data-testid="email-templates-page">
      <PageHeader title="Email templates" description="The messages your users receive for recovery, verification and one-time codes." />
      <QueryView query={list} skeleton="table" errorTitle="The templates could not be loaded">
        {(templates) => (
          <div className="template-layout">
            <nav aria-label="Templates">
              <ul className="template-list">
                {templates.map((t) => {
                  const current = t.template === chosen?.template && t.variant === chosen?.variant;
                  return (
                    <li key={`${t.template}.${t.variant}`}>
                      <button
                        type="button"
                        aria-current={current ? 'true' : undefined}
                        // Another template drops the edits of this one: asked first, like leaving the page.
                        onClick={() => confirmLeaving(`?template=${t.template}&variant=${t.variant}`, () => setUrl({ template: t.template, variant: t.variant }))}
                        data-testid={`template-${t.template}-${t.variant}`}
                      >
                        {templateLabel(t.template, t.variant)}
                        {t.custom && <span className="badge badge-dev">Custom</span>}
                      </button>
                    </li>
                  );
                })}
              </ul>
            </nav>
            <Card title={chosen ? templateLabel(chosen.template, chosen.variant) : 'Template'} testId="template-card">
              <QueryView query={template} skeleton="card" errorTitle="The template could not be loaded">
                {(t) => <TemplateEditor projectId={projectId} template={t} />}
              </QueryView>
            </Card>
          </div>
        )}
      </QueryView>
    </div>
  );
}
