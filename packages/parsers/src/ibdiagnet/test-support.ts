/** Paths and loaders for the ibdiagnet tests (not part of the package API). */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The monorepo root. */
export const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');
/** The two complete real ibdiagnet2 runs (see fixtures/ibdiagnet2-runs/SOURCE.md). */
export const runA = resolve(repoRoot, 'packages/parsers/fixtures/ibdiagnet2-runs/ndr-fat-tree-a');
export const runB = resolve(repoRoot, 'packages/parsers/fixtures/ibdiagnet2-runs/ndr-fat-tree-b');
export const fixturesDir = resolve(repoRoot, 'packages/parsers/fixtures/ibdiagnet2');

const ANNOTATION = /^# (SAMPLE SOURCE|NOTE|TRIMMED|EXCERPT|\(Lines after this)/;

/** A real excerpt from fixtures/ibdiagnet2/samples/ with its leading annotation lines removed. */
export function excerpt(name: string): string {
  const lines = readFileSync(resolve(fixturesDir, 'samples', name), 'utf8').split('\n');
  let i = 0;
  while (i < lines.length && ANNOTATION.test(lines[i])) i++;
  return lines.slice(i).join('\n');
}

export const fixture = (name: string): string => readFileSync(resolve(fixturesDir, name), 'utf8');
export const real = (dir: string, name: string): string => readFileSync(resolve(dir, name), 'utf8');
