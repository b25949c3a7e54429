/**
 * The fleet wall: one tile per fabric (one collector per fabric), each with its collector's own
 * status word, or UNREACHABLE / ERROR when that collector could not be read, and one word for
 * the fleet, the worst of them. Pure: the collector asks its peers and passes what they said in.
 */
import type { FabricSummary, FleetFabric, FleetFabricSummary, FleetReply, FleetStatusWord } from './api.ts';
import { formatAge } from './fabric-status.ts';

/**
 * Worst wins. A fabric nobody can read now is worse than one whose own scans are stale (the
 * collector that could say is gone or broken), and not hidden behind DEGRADED; but a critical
 * condition some fabric reports now outranks it.
 */
export const FLEET_WORD_RANK: Record<FleetStatusWord, number> = {
  OK: 0,
  DEGRADED: 1,
  STALE: 2,
  ERROR: 3,
  UNREACHABLE: 4,
  CRITICAL: 5,
};

/** The worst word of `words` (OK for none). */
export function worstFleetWord(words: Iterable<FleetStatusWord>): FleetStatusWord {
  let worst: FleetStatusWord = 'OK';
  for (const w of words) if (FLEET_WORD_RANK[w] > FLEET_WORD_RANK[worst]) worst = w;
  return worst;
}

/** Broken-now rows a fleet tile keeps: a tile shows the top few, the fabric's dashboard has the rest. */
export const FLEET_BROKEN_ROWS = 5;

/** What the fleet wall keeps of a summary: the status, the top broken-now rows, SM, freshness, counts. */
export function fleetSummaryOf(s: FabricSummary, maxRows = FLEET_BROKEN_ROWS): FleetFabricSummary {
  return {
    generatedAt: s.generatedAt,
    fabricStatus: s.fabricStatus,
    brokenNow: s.brokenNow.slice(0, maxRows),
    brokenNowTotal: s.brokenNow.length,
    sm: s.sm,
    freshness: s.freshness,
    switches: s.switches,
    hcas: s.hcas,
    links: s.links,
    degradedLinks: s.degradedLinks,
    downLinks: s.downLinks,
  };
}

/** What asking one fabric's collector gave: its summary, or why there is none. */
export type FleetReading =
  | { ok: true; summary: FleetFabricSummary; version: string | null }
  | { ok: false; word: 'UNREACHABLE' | 'ERROR'; problem: string };

/** What the fleet remembers of a fabric between two readings. */
export interface FleetMemory {
  lastGood: FleetFabricSummary | null;
  lastOkAt: number | null;
  version: string | null;
}

export const EMPTY_MEMORY: FleetMemory = { lastGood: null, lastOkAt: null, version: null };

/**
 * One tile from a reading and what was remembered: the collector's own word when it answered;
 * else UNREACHABLE or ERROR with the problem, when it last answered and what it said then (its
 * last summary is kept, marked stale: never shown as current, never green). Returns the new
 * memory too.
 */
export function fleetFabricOf(
  id: { name: string; self: boolean; url: string | null },
  reading: FleetReading,
  memory: FleetMemory,
  now: number,
): { fabric: FleetFabric; memory: FleetMemory } {
  if (reading.ok) {
    const { summary, version } = reading;
    return {
      fabric: {
        ...id,
        word: summary.fabricStatus.word,
        reasons: summary.fabricStatus.reasons,
        lastOkAt: now,
        checkedAt: now,
        version,
        summary,
        stale: false,
      },
      memory: { lastGood: summary, lastOkAt: now, version },
    };
  }
  const then =
    memory.lastGood && memory.lastOkAt !== null
      ? `last answer ${formatAge(now - memory.lastOkAt)} ago, when it said ${memory.lastGood.fabricStatus.word}`
      : 'no answer since this collector started';
  return {
    fabric: {
      ...id,
      word: reading.word,
      reasons: [reading.problem, then],
      lastOkAt: memory.lastOkAt,
      checkedAt: now,
      version: memory.version,
      summary: memory.lastGood,
      stale: true,
    },
    memory,
  };
}

const byName = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * The fleet reply: tiles sorted by name (`plane-2` before `plane-10`, so tiles keep their place
 * on the wall), the worst word, and one reason line per fabric that is not OK, worst first.
 */
export function fleetReplyOf(fabrics: readonly FleetFabric[], now: number): FleetReply {
  const sorted = [...fabrics].sort((a, b) => byName.compare(a.name, b.name));
  const reasons = sorted
    .filter((f) => f.word !== 'OK')
    .sort((a, b) => FLEET_WORD_RANK[b.word] - FLEET_WORD_RANK[a.word])
    .map((f) => `${f.name}: ${f.word}${f.reasons[0] ? ` - ${f.reasons[0]}` : ''}`);
  return { generatedAt: now, word: worstFleetWord(sorted.map((f) => f.word)), reasons, fabrics: sorted };
}

/**
 * Whether a collector of version `theirs` speaks the API of `ours`: the same major version
 * (semver), and the same minor while the major is 0 (0.x promises nothing between minors).
 * A version that is not `major.minor...` is not compatible.
 */
export function versionCompatible(ours: string, theirs: string): boolean {
  const parse = (v: string) => /^v?(\d+)\.(\d+)(?:[.+-]|$)/.exec(v.trim());
  const a = parse(ours);
  const b = parse(theirs);
  if (!a || !b) return false;
  return a[1] === b[1] && (a[1] !== '0' || a[2] === b[2]);
}
