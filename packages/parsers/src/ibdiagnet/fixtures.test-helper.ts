/** Paths and loaders for the ibdiagnet tests (not part of the package API). */
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FabricSnapshot, ParseResult } from '@ibwatch/fabric';
import { readIbdiagnetRun } from './run-reader.ts';
import type { IbdiagnetFiles, IbdiagnetRunOptions } from './run-reader.ts';

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

/**
 * An ibdiagnet output directory on disk as {@link IbdiagnetFiles}: plain reads, 1 MB chunks, as
 * the collector reads one (apps/collector/src/input/ibdiagnet-dir.ts, which also refuses FIFOs,
 * devices and huge files; its tests cover those). For the tests and benches of this package only.
 */
export function diskFiles(dir: string): IbdiagnetFiles {
  return {
    dir,
    path: (name) => join(dir, name),
    size: (name) => statSync(join(dir, name), { throwIfNoEntry: false })?.size,
    head(name, bytes) {
      const fd = openSync(join(dir, name), 'r');
      try {
        const buf = Buffer.alloc(bytes);
        return buf.toString('utf8', 0, readSync(fd, buf, 0, bytes, 0));
      } finally {
        closeSync(fd);
      }
    },
    chunks: (name) => fileChunks(join(dir, name)),
  };
}

/** The bytes of the file at `path` in chunks of one re-used 1 MB buffer, as the collector reads. */
export function* fileChunks(path: string): Generator<Uint8Array> {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) yield buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** `readIbdiagnetRun` over the directory `dir` on disk. */
export function readRunDir(dir: string, options?: IbdiagnetRunOptions): ParseResult<FabricSnapshot> {
  return readIbdiagnetRun(diskFiles(dir), options);
}
