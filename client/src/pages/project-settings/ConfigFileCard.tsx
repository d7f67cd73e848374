import { useState } from 'react';
import toast from 'react-hot-toast';
import { redactedSecretPaths } from '../../../../shared/domain/config-export';
import { projectConfigFileSchema, type ProjectConfigFile } from '../../../../shared/schemas/project-history';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { Dialog } from '../../components/Dialog';
import { TextField } from '../../components/TextField';
import { useJsonDownload } from '../../lib/download';
import { errorText } from '../../lib/errors';
import { trpc } from '../../trpc';

/** A redacted place as the user reads it: the last words of its JSON pointer. */
const placeOf = (pointer: string) => pointer.split('/').filter(Boolean).slice(-3).join(' › ');

/**
 * The configuration as a file: exported with every secret redacted, and a file imported as the project's next
 * version once each redacted secret is given again (refused when the configuration changed since the page loaded).
 */
export function ConfigFileCard({ projectId, slug, currentRevisionId }: { projectId: string; slug: string; currentRevisionId: string | undefined }) {
  const utils = trpc.useUtils();
  const exporter = useJsonDownload();
  const [file, setFile] = useState<ProjectConfigFile | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const importing = trpc.projectHistory.import.useMutation({
    onSuccess: () => {
      toast.success('The file was imported as a new version.');
      setFile(null);
    },
  });
  const places = file ? redactedSecretPaths(file.services) : [];
  const complete = places.every((p) => (secrets[p] ?? '') !== '');

  const exportFile = () =>
    exporter.save(`${slug}-configuration.json`, () => utils.projectHistory.export.fetch({ projectId }, { staleTime: 0 }), 'The configuration could not be exported.');

  const pick = async (picked: File | undefined) => {
    setFileError(null);
    if (!picked) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(await picked.text());
    } catch {
      setFileError('This file is not JSON: choose a configuration file exported here.');
      return;
    }
    const checked = projectConfigFileSchema.safeParse(parsed);
    if (!checked.success) {
      setFileError(checked.error.issues[0]?.message ?? 'This is not a project configuration file.');
      return;
    }
    importing.reset();
    setSecrets({});
    setFile(checked.data);
  };

  return (
    <Card title="Configuration file" testId="config-file-card">
      <p className="muted">Export the current configuration as a JSON file (secrets left out), or import one as the next version of this project.</p>
      <div className="row-actions">
        <Button variant="secondary" onClick={() => void exportFile()} busy={exporter.busy} data-testid="config-export">
          Export
        </Button>
        <label className="field">
          <span className="field-label">Import a file</span>
          <input type="file" accept=".json,application/json" onChange={(e) => void pick(e.target.files?.[0])} data-testid="config-import-file" />
        </label>
      </div>
      {fileError && (
        <p className="field-error" role="alert" data-testid="config-import-error">
          {fileError}
        </p>
      )}
      <Dialog
        open={file !== null}
        onClose={() => setFile(null)}
        title="Import this configuration?"
        description={file ? `“${file.name}” becomes the next version of this project and takes effect at once. The current configuration stays in the history.` : undefined}
        testId="config-import-dialog"
        footer={
          <>
            <Button variant="secondary" onClick={() => setFile(null)}>
              Cancel
            </Button>
            <Button
              variant="primary"
              disabled={!complete || !currentRevisionId}
              busy={importing.isPending}
              onClick={() => file && currentRevisionId && importing.mutate({ projectId, currentRevisionId, file, secrets })}
              data-testid="config-import-submit"
            >
              Import
            </Button>
          </>
        }
      >
        {places.length > 0 && <p>The export left these secrets out: give each one again.</p>}
        {places.map((p) => (
          <TextField key={p} label={placeOf(p)} hint={p} type="password" autoComplete="off" value={secrets[p] ?? ''} onChange={(e) => setSecrets({ ...secrets, [p]: e.target.value })} data-testid="config-import-secret" />
        ))}
        {importing.error && (
          <p className="field-error" role="alert">
            {errorText(importing.error) ?? 'The file could not be imported.'}
          </p>
        )}
      </Dialog>
    </Card>
  );
}
