/** Paths and loaders for the ibdiagnet tests (not part of the package API). */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The monorepo root. */
export const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');
/** Shared real samples live next to the repo, not in it (3 MB). */
export const samplesDir = resolve(repoRoot, '../shared/samples');
export const runA = resolve(samplesDir, 'ibdiagnet2-runs/ndr-fat-tree-a');
export const runB = resolve(samplesDir, 'ibdiagnet2-runs/ndr-fat-tree-b');
export const fixturesDir = resolve(repoRoot, 'packages/parsers/fixtures/ibdiagnet2');

const ANNOTATION = /^# (SAMPLE SOURCE|NOTE|TRIMMED|EXCERPT|\(Lines after this)/;

/** An excerpt from samples/ibdiagnet2/ with its leading annotation lines removed. */
export function excerpt(name: string): string {
  const lines = readFileSync(resolve(samplesDir, 'ibdiagnet2', name), 'utf8').split('\n');
  let i = 0;
  while (i < lines.length && ANNOTATION.test(lines[i])) i++;
  return lines.slice(i).join('\n');
}

export const fixture = (name: string): string => readFileSync(resolve(fixturesDir, name), 'utf8');
export const real = (dir: string, name: string): string => readFileSync(resolve(dir, name), 'utf8');
