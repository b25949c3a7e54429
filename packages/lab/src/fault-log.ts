/**
 * The lab's record of the faults injected into it and not undone yet (`<runDir>/faults.json`),
 * so `pnpm lab status` can list what is broken on purpose (what, where, since when) and a person
 * can check the dashboard against it. The fault functions note and clear entries themselves,
 * whichever process calls them (the lab CLI, the demo's scenario, a test). The run dir goes with
 * `pnpm lab down`, and with it the record. Written atomically (tmp + rename).
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { consolePort, type PortAddr } from './console.ts';

export type FaultKind = 'counter' | 'rate' | 'link-down' | 'drop' | 'swap' | 'sm-down' | 'rogue-sm';

export interface ActiveFault {
  /** Identity: noting a fault with the same key updates it and keeps its `since`. */
  key: string;
  kind: FaultKind;
  /** `"leaf-r1-01"[34] <-> "spine-p1-01"[6]`, `SM a ("head-01")`. */
  where: string;
  /** `width 2X`, `SymbolErrorCounter = 120`, `down`. */
  what: string;
  /** ISO 8601 time it was first injected. */
  since: string;
}

export const faultsFile = (runDir: string) => join(runDir, 'faults.json');

/** The active faults, oldest first; none when there is no record. */
export function readFaults(runDir: string): ActiveFault[] {
  try {
    return JSON.parse(readFileSync(faultsFile(runDir), 'utf8')) as ActiveFault[];
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
}

function writeFaults(runDir: string, faults: ActiveFault[]): void {
  const f = faultsFile(runDir);
  writeFileSync(`${f}.${process.pid}.tmp`, JSON.stringify(faults, null, 2) + '\n');
  renameSync(`${f}.${process.pid}.tmp`, f);
}

/** Records a fault (or updates the one with its key, keeping when it began). */
export function noteFault(runDir: string, f: Omit<ActiveFault, 'since'>, now = new Date()): void {
  const faults = readFaults(runDir);
  const i = faults.findIndex((x) => x.key === f.key);
  if (i >= 0) faults[i] = { ...f, since: faults[i]!.since };
  else faults.push({ ...f, since: now.toISOString() });
  writeFaults(runDir, faults);
}

/** Removes the faults `match` selects; returns how many. */
export function clearFaults(runDir: string, match: (f: ActiveFault) => boolean): number {
  const faults = readFaults(runDir);
  const left = faults.filter((f) => !match(f));
  if (left.length !== faults.length) writeFaults(runDir, left);
  return faults.length - left.length;
}

/** The same key for a link whichever end names it. */
export function linkWhere(a: PortAddr, b: PortAddr): string {
  return [consolePort(a), consolePort(b)].sort().join(' <-> ');
}

/** Key of a counter fault: one per port and counter. */
export const counterKey = (p: PortAddr, counter: string) => `counter ${consolePort(p)} ${counter}`;

const age = (ms: number) => {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 120 ? `${s} s` : s < 7200 ? `${Math.round(s / 60)} min` : `${Math.round(s / 3600)} h`;
};

/** The faults as `pnpm lab status` prints them: a count, then one line each, oldest first. */
export function faultLines(faults: readonly ActiveFault[], now: number): string[] {
  if (faults.length === 0) return ['active faults: none'];
  return [
    `active faults (${faults.length}):`,
    ...faults.map(
      (f) =>
        `  ${f.kind.padEnd(9)} ${f.where}: ${f.what} (since ${f.since.slice(11, 19)}Z, ` +
        `${age(now - Date.parse(f.since))} ago)`,
    ),
  ];
}
