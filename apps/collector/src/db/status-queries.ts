import type {
  FabricLink,
  FindingState,
  FindingSubject,
  NodeType,
  ScanKind,
  Severity,
  StatusFinding,
} from '@ibwatch/fabric';
import type { Db } from './open-db.ts';

/** What the freshness of one scan kind is judged from. */
export interface ScanFacts {
  lastOkAt: number | null;
  failuresInRow: number;
  lastError: string | null;
  firstAttemptAt: number | null;
}

/** One end of a cable as the status rows name it. */
export interface EndFacts {
  description: string | null;
  lid: number | null;
  type: NodeType | null;
  tier: string | null;
}

/** Read-side queries behind the fabric status: scan freshness, the findings that matter now, their cables. */
export function createStatusQueries(db: Db) {
  // Walks the kind's scans newest first by (kind, started_at): the latest success is near the end.
  const lastOk = db.prepare(
    `SELECT started_at AS startedAt, finished_at AS finishedAt FROM scans
     WHERE kind = ? AND status IN ('ok', 'partial') ORDER BY started_at DESC LIMIT 1`,
  );
  const failuresSince = db.prepare(
    `SELECT COUNT(*) AS n, MAX(started_at) AS lastAt FROM scans
     WHERE kind = ? AND status = 'failed' AND started_at > ?`,
  );
  const lastError = db.prepare(
    "SELECT error FROM scans WHERE kind = ? AND status = 'failed' ORDER BY started_at DESC LIMIT 1",
  );
  const firstAttempt = db.prepare('SELECT MIN(started_at) FROM scans WHERE kind = ?');
  const findings = db.prepare(
    `SELECT id, kind, severity, state, subject, title, short, first_seen AS firstSeen, last_seen AS lastSeen,
       cleared_at AS clearedAt, resolved_at AS resolvedAt, acknowledged_at AS acknowledgedAt FROM findings
     WHERE subject_type IN ('port', 'link', 'sm')
       AND (cleared_at IS NULL OR cleared_at >= @since OR resolved_at >= @since)`,
  );
  return {
    scanFacts(kind: ScanKind): ScanFacts {
      const ok = lastOk.get(kind) as { startedAt: number; finishedAt: number | null } | undefined;
      const failed = failuresSince.get(kind, ok?.startedAt ?? -1) as { n: number; lastAt: number | null };
      return {
        lastOkAt: ok ? (ok.finishedAt ?? ok.startedAt) : null,
        failuresInRow: failed.n,
        lastError: failed.n ? ((lastError.pluck().get(kind) as string | null) ?? null) : null,
        firstAttemptAt: (firstAttempt.pluck().get(kind) as number | null) ?? null,
      };
    },
    /**
     * Findings of ports, links and SMs that are current (not cleared, whatever the lifecycle
     * state), or were cleared or resolved since `since`.
     */
    statusFindings(since: number): StatusFinding[] {
      return (
        findings.all({ since }) as {
          id: number;
          kind: string;
          severity: Severity;
          state: FindingState;
          subject: string;
          title: string;
          short: string | null;
          firstSeen: number;
          lastSeen: number;
          clearedAt: number | null;
          resolvedAt: number | null;
          acknowledgedAt: number | null;
        }[]
      ).map((r) => ({ ...r, subject: JSON.parse(r.subject) as FindingSubject }));
    },
    /**
     * The stored links (present or gone) with an end among `ports` (`guid/num` keys), and what
     * names every end of them: their node's description and the port's LID (a switch's LID is
     * on its port 0).
     */
    cablesAt(ports: readonly string[]): { links: FabricLink[]; ends: Map<string, EndFacts> } {
      const pairs = JSON.stringify(
        ports.map((k) => {
          const slash = k.lastIndexOf('/');
          return [k.slice(0, slash), Number(k.slice(slash + 1))];
        }),
      );
      const rows = db
        .prepare(
          `WITH ids AS (SELECT p.id FROM json_each(?) j
                        JOIN ports p ON p.node_guid = j.value ->> 0 AND p.port_num = j.value ->> 1),
                hit AS (SELECT id, a_port_id, b_port_id FROM links WHERE a_port_id IN ids
                        UNION SELECT id, a_port_id, b_port_id FROM links WHERE b_port_id IN ids)
           SELECT pa.node_guid AS ag, pa.port_num AS ap, pb.node_guid AS bg, pb.port_num AS bp FROM hit
           JOIN ports pa ON pa.id = hit.a_port_id JOIN ports pb ON pb.id = hit.b_port_id ORDER BY hit.id`,
        )
        .all(pairs) as { ag: string; ap: number; bg: string; bp: number }[];
      const links = rows.map((r) => ({ a: { nodeGuid: r.ag, portNum: r.ap }, b: { nodeGuid: r.bg, portNum: r.bp } }));
      const keys = new Set(ports);
      for (const l of links) for (const e of [l.a, l.b]) keys.add(`${e.nodeGuid}/${e.portNum}`);
      const ends = new Map<string, EndFacts>();
      const endRows = db
        .prepare(
          `SELECT j.value AS k, n.description, n.type, n.tier, CASE WHEN n.type = 'switch' THEN n.lid ELSE
          p.lid END AS lid
           FROM json_each(?) j JOIN nodes n ON n.guid = substr(j.value, 1, instr(j.value, '/') - 1)
           LEFT JOIN ports p ON p.node_guid = n.guid
             AND p.port_num = CAST(substr(j.value, instr(j.value, '/') + 1) AS INTEGER)`,
        )
        .all(JSON.stringify([...keys])) as ({ k: string } & EndFacts)[];
      for (const { k, ...facts } of endRows) ends.set(k, facts);
      return { links, ends };
    },
    /** Whether any topology scan or import has stored a node. */
    hasFabricData(): boolean {
      return db.prepare('SELECT 1 FROM nodes LIMIT 1').get() !== undefined;
    },
  };
}
export type StatusQueries = ReturnType<typeof createStatusQueries>;
