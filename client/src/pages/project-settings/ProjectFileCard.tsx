import { useId, useState } from 'react';
import { redactedSecretPaths } from '../../../../shared/domain/config-export';
import { formatNumber } from '../../../../shared/domain/format';
import { BUNDLE_MAX_BYTES, bundleSummary, summaryOfCounts } from '../../../../shared/domain/project-bundle';
import { projectBundleSchema, type BundleImportResult, type ProjectBundle } from '../../../../shared/schemas/project-bundle';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { CopyValue } from '../../components/CopyButton';
import { Dialog } from '../../components/Dialog';
import { TextField } from '../../components/TextField';
import { useJsonDownload } from '../../lib/download';
import { errorText } from '../../lib/errors';
import { trpc } from '../../trpc';

/** A redacted place as the user reads it: the last words of its JSON pointer. */
const placeOf = (pointer: string) => pointer.split('/').filter(Boolean).slice(-3).join(' › ');

/** The first problem of a file that is not a project file, with where it is. */
function fileProblem(issues: { path: PropertyKey[]; message: string }[]): string {
  const issue = issues[0];
  if (!issue) return 'This is not a project file.';
  return issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message;
}

/**
 * The whole project as one file (configuration, identity schemas, themes, OAuth2 clients without secrets,
 * permission rules and relationships, identities if asked for), and such a file imported into this project:
 * what the file holds is shown before anything is written, and what was imported after (with the clients'
 * new secrets, shown once).
 */
export function ProjectFileCard({ projectId, slug, currentRevisionId }: { projectId: string; slug: string; currentRevisionId: string | undefined }) {
  const utils = trpc.useUtils();
  const inputId = useId();
  const [includeIdentities, setIncludeIdentities] = useState(false);
  const exporter = useJsonDownload();
  const [file, setFile] = useState<ProjectBundle | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const [result, setResult] = useState<BundleImportResult | null>(null);
  const importing = trpc.projectHistory.importBundle.useMutation({
    onSuccess: (answer) => {
      setResult(answer);
      setFile(null);
    },
  });
  const places = file ? redactedSecretPaths(file.services) : [];
  const complete = places.every((p) => (secrets[p] ?? '') !== '');

  const exportFile = () =>
    exporter.save(
      `${slug}-project.json`,
      () => utils.projectHistory.exportBundle.fetch({ projectId, includeIdentities }, { staleTime: 0, gcTime: 0 }),
      'The project could not be exported.',
    );

  const pick = async (picked: File | undefined) => {
    setFileError(null);
    if (!picked) return;
    if (picked.size > BUNDLE_MAX_BYTES) {
      setFileError(`This file is larger than ${formatNumber(BUNDLE_MAX_BYTES / 1024)} KiB, the most the console takes. Export the project without identities, or move them separately.`);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(await picked.text());
    } catch {
      setFileError('This file is not JSON: choose a project file exported here.');
      return;
    }
    const checked = projectBundleSchema.safeParse(parsed);
    if (!checked.success) {
      setFileError(fileProblem(checked.error.issues));
      return;
    }
    importing.reset();
    setSecrets({});
    setFile(checked.data);
  };

  const close = () => {
    if (!importing.isPending) setFile(null);
  };

  return (
    <Card title="Project file" testId="project-file-card">
      <p className="muted">
        Export the whole project as one JSON file — configuration, identity schemas, email templates, branding themes, OAuth2 clients (without their secrets), permission rules
        and relationships — or import such a file into a new, empty project.
      </p>
      <div className="row-actions">
        <label className="checkbox">
          <input type="checkbox" checked={includeIdentities} onChange={(e) => setIncludeIdentities(e.target.checked)} data-testid="project-export-identities" /> Include
          identities (with their password hashes: keep the file safe)
        </label>
        <Button variant="secondary" onClick={() => void exportFile()} busy={exporter.busy} data-testid="project-export">
          Export project
        </Button>
      </div>
      <div className="row-actions">
        <label className="field" htmlFor={inputId}>
          <span className="field-label">Import project</span>
          <input id={inputId} type="file" accept=".json,application/json" onChange={(e) => void pick(e.target.files?.[0])} data-testid="project-import-file" />
        </label>
      </div>
      {fileError && (
        <p className="field-error" role="alert" data-testid="project-import-error">
          {fileError}
        </p>
      )}
      <Dialog
        open={file !== null}
        onClose={close}
        title="Import this project?"
        description={file ? `“${file.name}” and everything below are added to this project; its configuration becomes the next version. Meant for a new, empty project.` : undefined}
        testId="project-import-dialog"
        footer={
          <>
            <Button variant="secondary" onClick={close} disabled={importing.isPending}>
              Cancel
            </Button>
            <Button
              variant="primary"
              disabled={!complete || !currentRevisionId}
              busy={importing.isPending}
              onClick={() => file && currentRevisionId && !importing.isPending && importing.mutate({ projectId, currentRevisionId, file, secrets })}
              data-testid="project-import-submit"
            >
              Import
            </Button>
          </>
        }
      >
        {file && (
          <>
            <p>The file holds:</p>
            <ul data-testid="project-import-summary">
              <li>the configuration, with its email templates and permission rules</li>
              {bundleSummary(file).map((s) => (
                <li key={s.part}>{s.text}</li>
              ))}
              {file.identities === undefined && <li>no identities (exported without them)</li>}
            </ul>
          </>
        )}
        {places.length > 0 && <p>The export left these secrets out: give each one again.</p>}
        {places.map((p) => (
          <TextField key={p} label={placeOf(p)} hint={p} type="password" autoComplete="off" value={secrets[p] ?? ''} onChange={(e) => setSecrets({ ...secrets, [p]: e.target.value })} data-testid="project-import-secret" />
        ))}
        {importing.error && (
          <p className="field-error" role="alert" data-testid="project-import-failure">
            {errorText(importing.error) ?? 'The project could not be imported.'}
          </p>
        )}
      </Dialog>
      <Dialog
        open={result !== null}
        onClose={() => setResult(null)}
        title="Project imported"
        testId="project-import-result"
        footer={
          <Button variant="primary" onClick={() => setResult(null)}>
            Done
          </Button>
        }
      >
        {result && (
          <>
            <ul data-testid="project-import-counts">
              {summaryOfCounts(result.imported).map((s) => (
                <li key={s.part}>{s.text}</li>
              ))}
            </ul>
            {result.clientSecrets.flatMap((c) =>
              c.clientSecret
                ? [
                    <p key={c.clientId}>
                      <code>{c.clientId}</code>: <CopyValue value={c.clientSecret} label={`Copy the secret of ${c.clientId}`} testId="project-import-client-secret" />
                    </p>,
                  ]
                : [],
            )}
            {result.notes.map((n) => (
              <p key={n} className="muted">
                {n}
              </p>
            ))}
          </>
        )}
      </Dialog>
    </Card>
  );
}
