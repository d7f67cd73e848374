import { useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { Select } from '../../components/TextField';
import { download } from '../../lib/download';
import { errorText } from '../../lib/errors';
import { trpc } from '../../trpc';
import { csvRows, emailOf, failureReport, guessMapping, jsonRows, readCsv, readJson, traitPaths, withDuplicates, withErrors, type ImportRow } from './import-rows';

const CHUNK = 100;

type Source = { kind: 'csv'; columns: string[]; records: Record<string, string>[] } | { kind: 'json'; records: Record<string, unknown>[] };
interface Failure {
  line: number;
  traits: Record<string, unknown>;
  error: string;
}

/**
 * Imports identities from a JSON or CSV file: CSV columns are mapped to the schema's traits, a dry run shows
 * each row's problems before anything is sent, then the valid rows go in chunks with a progress bar. Each
 * identity is written whole or not at all; a report of what failed can be downloaded.
 */
export function ImportDialog({ open, onClose, projectId }: { open: boolean; onClose: () => void; projectId: string }) {
  const schemas = trpc.identities.schemas.useQuery({ projectId }, { enabled: open });
  const schema = schemas.data?.find((s) => s.id === 'default') ?? schemas.data?.[0];
  const [source, setSource] = useState<Source | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [failures, setFailures] = useState<Failure[] | null>(null);
  const [imported, setImported] = useState(0);
  const importMany = trpc.identities.import.useMutation();

  const reset = () => {
    setSource(null);
    setFileError(null);
    setMapping({});
    setProgress(null);
    setFailures(null);
    setImported(0);
    setVerdicts(null);
  };
  const close = () => {
    if (progress && !failures) return; // an import in progress finishes first
    reset();
    onClose();
  };

  const parsed: ImportRow[] = !source || !schema ? [] : source.kind === 'csv' ? csvRows(source.records, mapping) : jsonRows(source.records);
  // The dry run: the identity provider's own validation of every row, before anything is written.
  // It also finds emails that are in the file twice or belong to identities of the project already.
  const dryRun = trpc.identities.checkTraits.useMutation();
  const taken = trpc.identities.existingAddresses.useMutation();
  const request = JSON.stringify(parsed.map((r) => r.traits));
  const [verdicts, setVerdicts] = useState<{ request: string; errors: Record<string, string>[]; existing: Set<string> } | null>(null);
  useEffect(() => {
    if (!open || !schema || parsed.length === 0 || parsed.length > 1000) return;
    let current = true;
    const emails = [...new Set(parsed.map(emailOf).filter((e): e is string => e !== undefined))];
    Promise.all([
      dryRun.mutateAsync({ projectId, schemaId: schema.id, traits: JSON.parse(request) as Record<string, unknown>[] }),
      emails.length > 0 ? taken.mutateAsync({ projectId, addresses: emails }) : Promise.resolve({ existing: [] }),
    ]).then(
      ([answer, found]) => current && setVerdicts({ request, errors: answer.errors, existing: new Set(found.existing) }),
      () => undefined,
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- re-checked when the rows (or the mapping) change
  }, [open, schema?.id, request]);
  const checked = verdicts !== null && verdicts.request === request;
  const rows = checked ? withDuplicates(withErrors(parsed, verdicts.errors), verdicts.existing) : parsed;
  const valid = checked ? rows.filter((r) => r.errors.length === 0) : [];
  const invalid = checked ? rows.filter((r) => r.errors.length > 0) : [];
  const paths = schema ? traitPaths(schema.schema) : [];

  const onFile = async (file: File | undefined) => {
    reset();
    if (!file) return;
    const text = await file.text();
    if (file.name.toLowerCase().endsWith('.json')) {
      const read = readJson(text);
      if ('error' in read) return setFileError(read.error);
      setSource({ kind: 'json', records: read.records });
    } else {
      const read = readCsv(text);
      if ('error' in read) return setFileError(read.error);
      setSource({ kind: 'csv', ...read });
      setMapping(guessMapping(read.columns, paths));
    }
  };

  const run = async () => {
    if (!schema) return;
    const found: Failure[] = invalid.map((r) => ({ line: r.line, traits: r.traits, error: r.errors.join('; ') }));
    setProgress({ done: 0, total: valid.length });
    let count = 0;
    for (let i = 0; i < valid.length; i += CHUNK) {
      const chunk = valid.slice(i, i + CHUNK);
      try {
        const answer = await importMany.mutateAsync({
          projectId,
          identities: chunk.map((r) => ({ schemaId: schema.id, traits: r.traits, ...(r.passwordHash ? { passwordHash: r.passwordHash } : {}) })),
        });
        answer.results.forEach((result, k) => {
          if (!result.ok) found.push({ line: chunk[k]!.line, traits: chunk[k]!.traits, error: result.error ?? 'Not imported' });
        });
        count += answer.imported;
      } catch (err) {
        // The whole chunk was refused before anything of it was written.
        for (const r of chunk) found.push({ line: r.line, traits: r.traits, error: errorText(err) ?? 'Not imported' });
      }
      setProgress({ done: Math.min(i + CHUNK, valid.length), total: valid.length });
    }
    setImported(count);
    setFailures(found.sort((a, b) => a.line - b.line));
    toast.success(`${count} identit${count === 1 ? 'y' : 'ies'} imported`);
  };

  const importing = progress !== null && failures === null;
  return (
    <Dialog
      open={open}
      onClose={close}
      title="Import identities"
      description="A CSV file with a header row, or a JSON array of identities. Rows are checked against the identity schema before anything is sent."
      testId="import-dialog"
      footer={
        failures ? (
          <>
            {failures.length > 0 && (
              <Button onClick={() => download('import-failures.csv', failureReport(failures), 'text/csv')} data-testid="import-report">
                Download the report of failed rows
              </Button>
            )}
            <Button variant="primary" onClick={close} data-testid="import-done">
              Done
            </Button>
          </>
        ) : (
          <>
            <Button onClick={close} disabled={importing}>
              Cancel
            </Button>
            <Button variant="primary" disabled={valid.length === 0 || importing} busy={importing} onClick={() => void run()} data-testid="import-submit">
              {valid.length > 0 ? `Import ${valid.length} identit${valid.length === 1 ? 'y' : 'ies'}` : 'Import'}
            </Button>
          </>
        )
      }
    >
      <div className="inline-form">
        <label className="field">
          <span className="field-label">File</span>
          <input type="file" accept=".csv,.json,text/csv,application/json" onChange={(e) => void onFile(e.target.files?.[0])} disabled={importing} data-testid="import-file" />
        </label>
        {fileError && (
          <p className="field-error" role="alert">
            {fileError}
          </p>
        )}
        {source?.kind === 'csv' && (
          <fieldset className="schema-fieldset" data-testid="import-mapping">
            <legend>Columns for each trait</legend>
            {paths.map((path) => (
              <Select
                key={path}
                label={path}
                options={[{ value: '', label: 'Not imported' }, ...source.columns.map((c) => ({ value: c, label: c }))]}
                value={mapping[path] ?? ''}
                onChange={(e) => setMapping((m) => ({ ...m, [path]: e.target.value }))}
                disabled={importing}
                data-testid={`import-map-${path}`}
              />
            ))}
          </fieldset>
        )}
        {parsed.length > 1000 && (
          <p className="field-error" role="alert">
            A file holds at most 1,000 identities; this one has {parsed.length}. Split it and import the parts one after the other.
          </p>
        )}
        {source && !failures && !checked && parsed.length > 0 && parsed.length <= 1000 && (
          <p className="muted" role="status">
            {dryRun.isError || taken.isError ? `The rows could not be checked: ${errorText(dryRun.error ?? taken.error) ?? 'try again.'}` : `Checking ${parsed.length} rows against the identity schema…`}
          </p>
        )}
        {source && !failures && checked && (
          <div data-testid="import-dry-run">
            <p role="status">
              {valid.length} of {rows.length} rows are ready; {invalid.length} {invalid.length === 1 ? 'has' : 'have'} problems and will not be imported.
            </p>
            {invalid.length > 0 && (
              <ul className="import-errors" data-testid="import-errors">
                {invalid.slice(0, 50).map((r) => (
                  <li key={r.line}>
                    Row {r.line}: {r.errors.join('; ')}
                  </li>
                ))}
                {invalid.length > 50 && <li>… and {invalid.length - 50} more in the report after the import.</li>}
              </ul>
            )}
          </div>
        )}
        {progress && (
          <div>
            <progress max={progress.total || 1} value={progress.done} aria-label="Import progress" data-testid="import-progress" />
            <p className="muted">
              {progress.done} of {progress.total} sent
            </p>
          </div>
        )}
        {failures && (
          <p role="status" data-testid="import-result">
            {imported} imported, {failures.length} not imported.
          </p>
        )}
      </div>
    </Dialog>
  );
}
