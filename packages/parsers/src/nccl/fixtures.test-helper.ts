/** Test helper: read a fixture of `fixtures/nccl`. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../../fixtures/nccl/', import.meta.url));

/** Fixture text (UTF-8). */
export function fixture(name: string): string {
  return readFileSync(dir + name, 'utf8');
}
