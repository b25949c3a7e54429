import type { Db } from './open-db.ts';

/** One port as `/metrics` labels it: its node, and the far end of its link when one is known. */
export interface MetricsPort {
  guid: string;
  port: number;
  description: string;
  type: string;
  remoteGuid: string | null;
  remotePort: number | null;
  remoteDescription: string | null;
}

export interface ScanKindStats {
  kind: string;
  /** End of the last ok or partial scan of the kind. */
  lastOkAt: number | null;
  /** Duration of the last finished scan of the kind (ms). */
  lastMs: number | null;
}

/** Ports (from `from`, which names them `p`) with their node. */
const portSelect = (from: string) => `SELECT p.id AS id, p.node_guid AS guid, p.port_num AS port,
  n.description AS description, n.type AS type FROM ${from} JOIN nodes n ON n.guid = p.node_guid`;

/** Far ends of the links at the ports in `ids` (a JSON array), or at every port when `ids` is null. */
const REMOTE_ENDS = `SELECT l.id AS linkId, l.present AS present, e.pid AS pid, r.node_guid AS guid, r.port_num AS port,
  rn.description AS description
  FROM (SELECT id AS lid, a_port_id AS pid, b_port_id AS rid FROM links
          WHERE @ids IS NULL OR a_port_id IN (SELECT value FROM json_each(@ids))
        UNION ALL SELECT id, b_port_id, a_port_id FROM links
          WHERE @ids IS NULL OR b_port_id IN (SELECT value FROM json_each(@ids))) e
  JOIN links l ON l.id = e.lid JOIN ports r ON r.id = e.rid JOIN nodes rn ON rn.guid = r.node_guid`;

/**
 * The port `p` is an end of a known link. Two index lookups: a join on `a = p OR b = p` made
 * SQLite walk every link (31k at 10k GPUs) for each scrape.
 */
const AT_A_LINK = `(EXISTS (SELECT 1 FROM links l WHERE l.a_port_id = p.id)
  OR EXISTS (SELECT 1 FROM links l WHERE l.b_port_id = p.id))`;

type PortRow = Omit<MetricsPort, 'remoteGuid' | 'remotePort' | 'remoteDescription'> & { id: number };

/** Each port with the far end of its link: the present one, else the latest. */
function withRemotes(db: Db, ports: PortRow[], ids: number[] | null): MetricsPort[] {
  const ends = db.prepare(REMOTE_ENDS).all({ ids: ids === null ? null : JSON.stringify(ids) }) as {
    linkId: number;
    present: number;
    pid: number;
    guid: string;
    port: number;
    description: string;
  }[];
  const best = new Map<number, (typeof ends)[number]>();
  for (const e of ends) {
    const b = best.get(e.pid);
    if (!b || e.present > b.present || (e.present === b.present && e.linkId > b.linkId)) best.set(e.pid, e);
  }
  return ports.map((p) => {
    const r = best.get(p.id);
    return {
      guid: p.guid,
      port: p.port,
      description: p.description,
      type: p.type,
      remoteGuid: r?.guid ?? null,
      remotePort: r?.port ?? null,
      remoteDescription: r?.description ?? null,
    };
  });
}

/**
 * Every query `/metrics` runs that is not already a repository's: current state only (counts of
 * what the latest scans observed), never sums over retained rows, which shrink as retention
 * prunes and would read to Prometheus as counter resets.
 */
export function createMetricsRepo(db: Db) {
  const lastSweepAt = db.prepare('SELECT MAX(at) FROM counter_deltas').pluck();
  return {
    /** When the last stored sweep's deltas were taken (null before the second sweep). */
    lastSweepDeltaAt(): number | null {
      return lastSweepAt.get() as number | null;
    },
    /** Per-port error increases of the last stored sweep (non-zero only, as stored). */
    lastSweepDeltas(): {
      guid: string;
      port: number;
      description: string;
      counter: string;
      delta: number;
      intervalS: number;
    }[] {
      const at = lastSweepAt.get() as number | null;
      if (at === null) return [];
      return db
        .prepare(
          `SELECT p.node_guid AS guid, p.port_num AS port, n.description AS description, c.name AS counter,
             d.delta AS delta, d.interval_ms / 1000.0 AS intervalS
           FROM counter_deltas d JOIN ports p ON p.id = d.port_id JOIN nodes n ON n.guid = p.node_guid
           JOIN counter_names c ON c.id = d.counter_id WHERE d.at = ?`,
        )
        .all(at) as never;
    },
    /** Increases by counter name stored by one scan (its deltas are all at or after its start). */
    incrementsOfScan(scanId: number, startedAt: number): { counter: string; n: number }[] {
      return db
        .prepare(
          `SELECT c.name AS counter, SUM(d.delta) AS n FROM counter_deltas d JOIN counter_names c ON c.id = d.counter_id
           WHERE d.at >= ? AND d.scan_id = ? GROUP BY c.name`,
        )
        .all(startedAt, scanId) as { counter: string; n: number }[];
    },
    portsByState(): { state: string; n: number }[] {
      return db
        .prepare(
          "SELECT COALESCE(state, 'Unknown') AS state, COUNT(*) AS n FROM ports WHERE port_num > 0 GROUP BY state",
        )
        .all() as { state: string; n: number }[];
    },
    /** Ports at an end of a known link that are not Active. */
    linkPortsDown(): { guid: string; port: number; description: string; physState: string | null }[] {
      return db
        .prepare(
          `SELECT p.node_guid AS guid, p.port_num AS port, n.description AS description, p.phys_state AS physState
           FROM ports p JOIN nodes n ON n.guid = p.node_guid
           WHERE p.state != 'Active' AND ${AT_A_LINK}`,
        )
        .all() as never;
    },
    linksByHealth(): { health: string; n: number }[] {
      return db
        .prepare("SELECT health, COUNT(*) AS n FROM links WHERE present = 1 OR health = 'down' GROUP BY health")
        .all() as { health: string; n: number }[];
    },
    scanKinds(): ScanKindStats[] {
      return db
        .prepare(
          `SELECT kind, MAX(CASE WHEN status IN ('ok','partial') THEN finished_at END) AS lastOkAt,
             (SELECT duration_ms FROM scans s2 WHERE s2.kind = s.kind AND s2.status != 'running'
              ORDER BY id DESC LIMIT 1) AS lastMs
           FROM scans s GROUP BY kind`,
        )
        .all() as ScanKindStats[];
    },
    /** Open and acknowledged findings (cleared ones until they resolve) by severity and kind. */
    openFindings(): { severity: string; kind: string; n: number }[] {
      return db
        .prepare("SELECT severity, kind, COUNT(*) AS n FROM findings WHERE state != 'resolved' GROUP BY severity, kind")
        .all() as { severity: string; kind: string; n: number }[];
    },
    /** Ports of links whose health is not ok, and ports of known links that are not Active. */
    problemPortKeys(): { guid: string; port: number }[] {
      return db
        .prepare(
          `SELECT p.node_guid AS guid, p.port_num AS port
           FROM links l JOIN ports p ON p.id IN (l.a_port_id, l.b_port_id)
           WHERE l.health != 'ok' AND (l.present = 1 OR l.health = 'down')
           UNION SELECT p.node_guid, p.port_num FROM ports p WHERE p.state != 'Active' AND ${AT_A_LINK}`,
        )
        .all() as { guid: string; port: number }[];
    },
    /** The given ports (guid/port pairs) with names and far ends, in the order given (unknown ones left out). */
    portsAt(keys: { guid: string; port: number }[]): MetricsPort[] {
      if (keys.length === 0) return [];
      const ports = db
        .prepare(
          `WITH k(i, g, n) AS (SELECT key, json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))
           ${portSelect('k JOIN ports p ON p.node_guid = k.g AND p.port_num = k.n')} ORDER BY k.i`,
        )
        .all(JSON.stringify(keys.map((k) => [k.guid, k.port]))) as PortRow[];
      return withRemotes(
        db,
        ports,
        ports.map((p) => p.id),
      );
    },
    /** How many ports `allPorts` would give (the limit check before building them). */
    allPortCount(): number {
      return db.prepare('SELECT COUNT(*) FROM ports WHERE port_num > 0').pluck().get() as number;
    },
    /** Every port (port 0 of switches excluded) with names and far ends. */
    allPorts(): MetricsPort[] {
      return withRemotes(db, db.prepare(`${portSelect('ports p')} WHERE p.port_num > 0`).all() as PortRow[], null);
    },
  };
}

export type MetricsRepo = ReturnType<typeof createMetricsRepo>;
