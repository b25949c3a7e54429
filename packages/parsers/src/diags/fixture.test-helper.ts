/** Test helper: read a fixture of packages/parsers/fixtures/ as text. */
import { readFileSync } from 'node:fs';

export function fixture(rel: string): string {
  return readFileSync(new URL(`../../fixtures/${rel}`, import.meta.url), 'utf8');
}
