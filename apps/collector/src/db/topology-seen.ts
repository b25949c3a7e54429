import type { FabricLink, FabricNode, FabricPort } from '@ibwatch/fabric';
import type { Db } from './open-db.ts';

/**
 * A node's, port's or link's last-seen time as SQL, `t` being the table's alias: the latest
 * topology scan's time for the rows it saw, else the row's own `last_seen` (migration 0018).
 * Every reader of `last_seen` of these tables goes through it.
 */
export const lastSeenSql = (t: string): string =>
  `(CASE WHEN ${t}.seen_latest THEN (SELECT at FROM topology_seen) ELSE ${t}.last_seen END)`;

/** The latest topology scan: when it ran, its input's fingerprint and the row counts it left. */
export interface LatestSeen {
  at: number;
  /** inputFingerprint of its nodes, ports and links; null when it listed a node or port twice. */
  input: string | null;
  /** shapeOf the tables right after it. */
  shape: string;
}

/** The latest topology scan (null before the first one since migration 0018). */
export function latestSeen(db: Db): LatestSeen | null {
  return (db.prepare('SELECT at, input, shape FROM topology_seen').get() as LatestSeen | undefined) ?? null;
}

/** Records the scan that just stored its topology (inside its transaction). */
export function setLatestSeen(db: Db, at: number, input: string | null, shape: string): void {
  db.prepare(
    `INSERT INTO topology_seen (id, at, input, shape) VALUES (1, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET at = excluded.at, input = excluded.input, shape = excluded.shape`,
  ).run(at, input, shape);
}

/** Row counts of nodes, ports and links: a write behind ingest's back (a test, a repair) moves them. */
export function shapeOf(db: Db): string {
  return db
    .prepare(
      "SELECT (SELECT COUNT(*) FROM nodes) || '/' || (SELECT COUNT(*) FROM ports) || '/' || " +
        '(SELECT COUNT(*) FROM links)',
    )
    .pluck()
    .get() as string;
}

/**
 * True when a scan at `at` with input fingerprint `input` would find every node, port and link
 * as stored: the latest scan had the same input (no node or port twice) and nothing but a
 * scan wrote the rows since. Then the scan would write nothing but its time: the fingerprint
 * is of everything ingest compares, and ingest leaves the rows as its input says. `at` must be
 * later than the latest scan and every link's first_seen, or the new-link count could differ.
 */
export function unchangedSince(db: Db, last: LatestSeen, input: string, at: number): boolean {
  if (last.input !== input || !(at > last.at) || last.shape !== shapeOf(db)) return false;
  const firstSeen = db.prepare('SELECT MAX(first_seen) FROM links').pluck().get() as number | null;
  return firstSeen === null || at > firstSeen;
}

/**
 * Two 32-bit multiply-xor lanes over every value, seeded per process: a 64-bit hash of a scan's
 * input in ~0.1 s at 45k GPUs (JSON and SHA-256 took ~1.5 s, more than comparing saved). The
 * seed is random and never stored, so node descriptions cannot be chosen to collide with the
 * latest input; after a restart the first scan is compared in full.
 */
class InputHash {
  private a: number;
  private b: number;
  constructor(seed: Uint32Array) {
    this.a = seed[0]! | 0;
    this.b = seed[1]! | 0;
  }
  /** A string, then its length past the last char code: no two sequences of values share a text. */
  str(s: string): void {
    let a = this.a;
    let b = this.b;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    this.a = Math.imul(a ^ (s.length + 0x10000), 0x01000193);
    this.b = Math.imul(b ^ (s.length + 0x10000), 0x5bd1e995);
  }
  /** A value ingest stores: strings as they are, numbers as text, absent as its own mark. */
  value(v: string | number | null | undefined): void {
    if (v === undefined || v === null) {
      this.a = Math.imul(this.a ^ 0x20000, 0x01000193);
      this.b = Math.imul(this.b ^ 0x20000, 0x5bd1e995);
    } else if (typeof v === 'number') {
      this.a = Math.imul(this.a ^ 0x30000, 0x01000193);
      if ((v | 0) === v) {
        this.a = Math.imul(this.a ^ v, 0x01000193);
        this.b = Math.imul(this.b ^ v, 0x5bd1e995);
      } else this.str(String(v));
    } else this.str(v);
  }
  /** A list as ingest stores it (joined, empty as absent), without joining it. */
  list(v: readonly string[] | undefined): void {
    if (v === undefined || v.length === 0) return this.value(null);
    this.a = Math.imul(this.a ^ (0x40000 + v.length), 0x01000193);
    for (const s of v) this.str(s);
  }
  digest(): string {
    return `${(this.a >>> 0).toString(16)}.${(this.b >>> 0).toString(16)}`;
  }
}

const SEED = crypto.getRandomValues(new Uint32Array(2));
/** Which process's seed a stored fingerprint was made with. */
const SEED_TAG = crypto.getRandomValues(new Uint32Array(2)).join('.');

/** A fingerprint of everything ingest stores of a scan's nodes, ports and links, in the scan's order. */
export function inputFingerprint(
  nodes: readonly FabricNode[],
  ports: readonly FabricPort[],
  links: readonly FabricLink[],
  complete: boolean,
): string {
  const h = new InputHash(SEED);
  h.value(complete ? 1 : 0);
  h.value(nodes.length);
  for (const n of nodes) {
    h.value(n.guid);
    h.value(n.type);
    h.value(n.description);
    h.value(n.numPorts);
    h.value(n.lid);
  }
  h.value(ports.length);
  for (const p of ports) {
    h.value(p.nodeGuid);
    h.value(p.portNum);
    h.value(p.portGuid);
    h.value(p.lid);
    h.value(p.state);
    h.value(p.physState);
    h.value(p.widthActive);
    h.value(p.speedActive);
    h.list(p.widthEnabled);
    h.list(p.widthSupported);
    h.list(p.speedEnabled);
    h.list(p.speedSupported);
  }
  h.value(links.length);
  for (const l of links) {
    h.value(l.a.nodeGuid);
    h.value(l.a.portNum);
    h.value(l.b.nodeGuid);
    h.value(l.b.portNum);
  }
  return `${SEED_TAG}:${h.digest()}`;
}

/**
 * Rows the latest scan saw and this one did not: their last-seen time becomes that scan's
 * (`previousAt`), kept in the row. `key` is the table's key column, `keys` its values.
 */
export function stopSeeing(
  db: Db,
  table: 'nodes' | 'ports' | 'links',
  key: 'guid' | 'id',
  keys: (string | number)[],
  previousAt: number,
): void {
  if (!keys.length) return;
  db.prepare(`UPDATE ${table} SET last_seen = ?, seen_latest = 0 WHERE ${key} IN (SELECT value FROM json_each(?))`).run(
    previousAt,
    JSON.stringify(keys),
  );
}
