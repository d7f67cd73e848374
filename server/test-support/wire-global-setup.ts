import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { sumTallies } from './wire-tally';

/** Gives the integration suite a folder for the wire counts, and prints their sum when the run ends. */
export default async function setup(project: TestProject) {
  const dir = await mkdtemp(join(tmpdir(), 'wire-conformance-'));
  project.provide('wireConformanceDir', dir);
  return async () => {
    const total = await sumTallies(dir);
    console.log(
      `wire conformance: ${total.validated} answers validated against Ory's OpenAPI, ${total.allowlisted} allowlisted` +
        ` (${total.mismatched} mismatched, ${total.localOnly} local-only answers not checked; ${total.files} test files)`,
    );
    for (const [reason, n] of Object.entries(total.reasons)) console.log(`  ${n} allowlisted: ${reason}`);
    await rm(dir, { recursive: true, force: true });
  };
}
