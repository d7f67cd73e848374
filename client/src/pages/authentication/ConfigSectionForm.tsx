import type { ReactNode } from 'react';
import toast from 'react-hot-toast';
import type { FieldValues, Path } from 'react-hook-form';
import type { z } from 'zod';
import type { ProjectConfig } from '../../../../shared/schemas/project-config';
import { Card, PageHeader } from '../../components/Card';
import { QueryView } from '../../components/QueryView';
import { SettingsForm } from '../../components/SettingsForm';
import { Select, TextArea, TextField } from '../../components/TextField';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';

/** One field of a settings page: an on/off choice, a text, a whole number, a choice among options or a list (a line each). */
export interface ConfigField<T> {
  key: Path<T> & string;
  label: string;
  hint?: string;
  kind: 'checkbox' | 'text' | 'number' | 'select' | 'lines';
  options?: { value: string; label: string }[];
  placeholder?: string;
}

export interface ConfigSectionProps<T extends FieldValues> {
  /** The page's test id and the prefix of its fields' (`${testId}-${key}`). */
  testId: string;
  title: string;
  description: ReactNode;
  cardTitle?: string;
  /** The form's zod schema (a page may show part of a section). */
  schema: z.ZodType<T, T>;
  fields: readonly ConfigField<T>[];
  /** The page's values out of the project's settings. */
  read: (config: ProjectConfig) => T;
  /** Saves the changed fields with the page's setter (the revision read is sent along) and answers the settings saved. */
  save: (projectId: string, changes: Partial<T>, revisionId: string) => Promise<ProjectConfig>;
  submitLabel: string;
  savedMessage: string;
  /** A question before a risky change (turning sign-up off), or undefined. */
  confirm?: (changes: Partial<T>) => { title: string; message: ReactNode; confirmLabel: string } | undefined;
  /** Cards the page shows below the section's form (settings kept elsewhere in the project config). */
  children?: ReactNode;
}

function Fields<T extends FieldValues>({ testId, fields, form }: { testId: string; fields: readonly ConfigField<T>[]; form: import('react-hook-form').UseFormReturn<T> }) {
  return (
    <>
      {fields.map((f) => {
        const error = (form.formState.errors as Record<string, { message?: string } | undefined>)[f.key]?.message;
        const id = `${testId}-${f.key.replace(/_/g, '-')}`;
        if (f.kind === 'checkbox') {
          return (
            <div key={f.key} className="field">
              <label className="checkbox">
                <input type="checkbox" data-testid={id} {...form.register(f.key)} /> {f.label}
              </label>
              {f.hint && <p className="field-hint">{f.hint}</p>}
            </div>
          );
        }
        if (f.kind === 'select') {
          return <Select key={f.key} label={f.label} hint={f.hint} options={f.options ?? []} error={error} data-testid={id} {...form.register(f.key)} />;
        }
        if (f.kind === 'lines') {
          return <TextArea key={f.key} label={f.label} hint={f.hint} rows={4} placeholder={f.placeholder} error={error} data-testid={id} {...form.register(f.key)} />;
        }
        return (
          <TextField
            key={f.key}
            label={f.label}
            hint={f.hint}
            placeholder={f.placeholder}
            autoComplete="off"
            inputMode={f.kind === 'number' ? 'numeric' : undefined}
            type={f.kind === 'number' ? 'number' : 'text'}
            error={error}
            data-testid={id}
            {...form.register(f.key, f.kind === 'number' ? { valueAsNumber: true } : {})}
          />
        );
      })}
    </>
  );
}

/** A settings page of the project's identity config: its section read with `projectConfig.get`, saved with its setter. */
export function ConfigSectionPage<T extends FieldValues>(props: ConfigSectionProps<T>) {
  const project = useProject();
  const utils = trpc.useUtils();
  const config = trpc.projectConfig.get.useQuery({ projectId: project.id });
  return (
    <div className="page page-narrow" data-testid={`${props.testId}-page`}>
      <PageHeader title={props.title} description={props.description} />
      <Card {...(props.cardTitle ? { title: props.cardTitle } : {})}>
        <QueryView query={config} skeleton="card" errorTitle="The project's settings could not be loaded">
          {(c) => (
            <SettingsForm
              schema={props.schema}
              values={props.read(c)}
              testId={`${props.testId}-form`}
              submitLabel={props.submitLabel}
              errorContext="Could not save the settings"
              {...(props.confirm ? { confirm: props.confirm } : {})}
              onSave={async (changes) => {
                const saved = await props.save(project.id, changes, (utils.projectConfig.get.getData({ projectId: project.id }) ?? c).revisionId);
                utils.projectConfig.get.setData({ projectId: project.id }, saved);
                return saved;
              }}
              onSaved={() => toast.success(props.savedMessage)}
              reload={async () => props.read(await utils.projectConfig.get.fetch({ projectId: project.id }, { staleTime: 0 }))}
            >
              {(form) => <Fields testId={props.testId} fields={props.fields} form={form} />}
            </SettingsForm>
          )}
        </QueryView>
      </Card>
      {props.children}
    </div>
  );
}
