import { randomUUID } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** How many answers of the local stack one test file's stacks sent, by outcome of the wire check. */
export interface WireTally {
  /** Answers checked against a schema of Ory's spec (matching, allowlisted or not). */
  validated: number;
  /** Of those, answers whose only problems are allowlisted spec bugs. */
  allowlisted: number;
  /** Answers of local-only routes (no Ory call), not checked. */
  localOnly: number;
  mismatched: number;
  /** Allowlisted answers by the reason of the entry that allowed them. */
  reasons: Record<string, number>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder where each test file of the integration suite writes its WireTally. */
    wireConformanceDir: string;
  }
}

export const emptyTally = (): WireTally => ({ validated: 0, allowlisted: 0, localOnly: 0, mismatched: 0, reasons: {} });

export async function writeTally(dir: string, tally: WireTally): Promise<void> {
  await writeFile(join(dir, `${process.pid}-${randomUUID()}.json`), JSON.stringify(tally));
}

export async function sumTallies(dir: string): Promise<WireTally & { files: number }> {
  const total = { ...emptyTally(), files: 0 };
  for (const name of await readdir(dir)) {
    if (!name.endsWith('.json')) continue;
    const tally = JSON.parse(await readFile(join(dir, name), 'utf8')) as WireTally;
    total.validated += tally.validated;
    total.allowlisted += tally.allowlisted;
    total.localOnly += tally.localOnly;
    total.mismatched += tally.mismatched;
    for (const [reason, n] of Object.entries(tally.reasons)) total.reasons[reason] = (total.reasons[reason] ?? 0) + n;
    total.files += 1;
  }
  return total;
}
