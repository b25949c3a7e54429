/**
 * What `ibwatch serve` records about itself in the database at start (settings key
 * `collector.run`): its source, cadences and address. `ibwatch status` reading that database
 * judges freshness by these cadences, not by its own environment's (the demo's 15 s PM sweeps
 * would otherwise be judged by the production minute), and knows where to ask the collector.
 */
import type { Db } from './open-db.ts';

/** IBWATCH_SOURCE's values (config.ts SourceKind; db/ imports nothing of the collector above it). */
type SourceKind = 'lab' | 'diags' | 'ibdiagnet' | 'import-only';
const KEY = 'collector.run';
const SOURCES: readonly SourceKind[] = ['lab', 'diags', 'ibdiagnet', 'import-only'];

export interface CollectorRun {
  source: SourceKind;
  cron: { pm: string; sm: string; topology: string; ibdiagnet: string };
  jitterMs: number;
  /** Epoch ms. */
  startedAt: number;
  /** Where it listens: `http://127.0.0.1:8080`. */
  url: string;
  pid: number;
}

export function recordCollectorRun(db: Db, run: CollectorRun): void {
  db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ).run(KEY, JSON.stringify(run));
}

/** The record, or null when there is none (a database no collector served) or it is not one. */
export function readCollectorRun(db: Db): CollectorRun | null {
  const text = db.prepare('SELECT value FROM settings WHERE key = ?').pluck().get(KEY) as string | undefined;
  if (text === undefined) return null;
  let r: Partial<CollectorRun>;
  try {
    r = JSON.parse(text) as Partial<CollectorRun>;
  } catch {
    return null;
  }
  const cron = r.cron;
  const ok =
    SOURCES.includes(r.source as SourceKind) &&
    !!cron &&
    [cron.pm, cron.sm, cron.topology, cron.ibdiagnet].every((c) => typeof c === 'string') &&
    typeof r.jitterMs === 'number' &&
    typeof r.startedAt === 'number' &&
    typeof r.url === 'string';
  return ok ? (r as CollectorRun) : null;
}
