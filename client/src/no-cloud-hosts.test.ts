import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('the client guesses no project address', () => {
  it('names no cloud host: every project URL comes from the server', () => {
    const offenders = sources(root).filter((file) => readFileSync(file, 'utf8').includes('oryapis.com'));
    expect(offenders).toEqual([]);
  });
});
