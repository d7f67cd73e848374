import { existsSync, readFileSync, rmSync } from 'node:fs';
import { a11yLogPath } from './support';

/** Prints how many accessibility checks ran and how many were repeats skipped, then removes the run's data directory. */
export default function globalTeardown(): void {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) return;
  const log = a11yLogPath(dir);
  if (existsSync(log)) {
    const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const scanned = lines.filter((l) => l.startsWith('scan\t')).length;
    console.log(`Accessibility: ${scanned} axe scans, ${lines.length - scanned} repeats skipped`);
  }
  for (const stackDir of [dir, `${dir}-consent`, `${dir}-clock`]) rmSync(stackDir, { recursive: true, force: true });
  rmSync(log, { force: true });
}
