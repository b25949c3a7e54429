import {
  topologyColumnsOf,
  type LinkHealth,
  type TopoLink,
  type TopoLinkRow,
  type TopoNode,
  type TopologyReply,
} from '@ibwatch/fabric';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Db } from './open-db.ts';
import type { NameLookup } from './name-lookup.ts';
import { createFabricQueries } from './fabric-queries.ts';
import { topologyCounters, type TopologyCounters } from './topology-counters.ts';

/** The reply in two parts: what only a topology ingest changes, and what a sweep does. */
export interface TopologyParts {
  /** `{"format":2,"vocab":…,"nodes":…,"links":…,"endLids":…,` as UTF-8: kept while the topology stays. */
  head: Buffer;
  /** `"generatedAt":…,"problems":[…]}`: built for every reply. */
  tail: Buffer;
  /** The problems the tail lists: `[link index, health, reason]`. */
  problems: TopologyReply['problems'];
}

/** Rows read per turn of the event loop by ready() (~30 ms of CPU per slice of links at 45k GPUs). */
const SLICE_ROWS = 8192;

/** The index of `id` in ascending `ids`, or undefined. */
function indexIn(ids: number[], id: number): number | undefined {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = ids[mid]!;
    if (v === id) return mid;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

interface Structure {
  /** The shape counter (topologyCounters) the structure was read at. */
  shape: string;
  /** Shape and colour counters it was read at, '' when the colour moved while it was read in slices. */
  stamp: string;
  head: Buffer;
  /** The reply's link ids, ascending (rows are read by id): a link's index by binary search. */
  ids: number[];
}

/**
 * The body of GET /api/topology (format 2: columns, see packages/fabric/src/api/topology.ts).
 * At 45k GPUs (49k nodes, 136k links) the columns are ~8 MB; building them takes most of a
 * second, so they are built once per topology (`head`, sent first so its gzip and CRC can be
 * kept, see routes/gzip-tail.ts), and a sweep that recolours links only re-lists the few links
 * whose health is not ok (`tail`). Names and racks follow NameBook: the node-name map's entry,
 * else the description, else the GUID. `ready()` builds the columns in slices of the event loop
 * (a synchronous build held every request for ~2.7 s of CPU at 45k GPUs); `parts()` builds them
 * at once when nobody awaited `ready()`: both give the same bytes (the same rows, in order).
 */
export function createTopologyJson(db: Db, names: NameLookup, opts: { slice?: number } = {}) {
  const SLICE = opts.slice ?? SLICE_ROWS;
  const q = createFabricQueries(db, names);
  // Every link as the reply shows it when ok; links gone from the fabric stay on the map while down.
  const LINKS = `SELECT l.id, pa.node_guid, pa.port_num, pa.lid, pb.node_guid, pb.port_num, pb.lid,
       COALESCE(l.tier, 'other'), pa.width_active, pa.speed_active
       FROM links l JOIN ports pa ON pa.id = l.a_port_id JOIN ports pb ON pb.id = l.b_port_id
       JOIN nodes na ON na.guid = pa.node_guid JOIN nodes nb ON nb.guid = pb.node_guid
       WHERE (l.present = 1 OR l.health = 'down')`;
  const rows = db.prepare(`${LINKS} ORDER BY l.id`).raw();
  const rowsAfter = db.prepare(`${LINKS} AND l.id > ? ORDER BY l.id LIMIT ?`).raw();
  // Everything the head shows moves the shape counter (migration 0021, topology-repo.ts).
  const counters = topologyCounters(db);
  const unusual = db
    .prepare("SELECT id, present, health, reason FROM links WHERE present = 0 OR health != 'ok' OR reason IS NOT NULL")
    .raw();
  let cached: Structure | null = null;
  /** The build under way in slices, shared by every caller of ready(). */
  let pending: Promise<void> | null = null;

  const linkRow = (r: unknown[]): TopoLinkRow => ({
    id: r[0] as number,
    a: r[1] as string,
    aPort: r[2] as number,
    aLid: r[3] as number | null,
    b: r[4] as string,
    bPort: r[5] as number,
    bLid: r[6] as number | null,
    tier: r[7] as TopoLink['tier'],
    width: r[8] as TopoLink['widthActive'],
    speed: r[9] as TopoLink['speedActive'],
    health: 'ok',
    reason: null,
  });

  const stampOf = (c: TopologyCounters) => `${c.shape}|${c.colour}`;
  let checked = '';

  /** The head: the reply's columns up to its closing brace, which becomes a comma (one byte either way). */
  function headOf(reply: TopologyReply): Buffer {
    const { format, vocab, nodes, links, endLids } = reply;
    const head = Buffer.from(JSON.stringify({ format, vocab, nodes, links, endLids }));
    head[head.length - 1] = 0x2c;
    return head;
  }

  function structure(shape: string, stamp: string, nodes: TopoNode[], links: TopoLinkRow[]): Structure {
    const reply = topologyColumnsOf(0, nodes, links);
    return { shape, stamp, head: headOf(reply), ids: reply.links.id };
  }

  function build(c: TopologyCounters): Structure {
    return structure(c.shape, stampOf(c), q.nodes(), (rows.all() as unknown[][]).map(linkRow));
  }

  /**
   * The same structure as build(), its rows read SLICE at a time with the event loop free in
   * between (other requests, scans). A write to what it shows during the read moves the shape
   * counter: the slices are then read again. Building the columns from the rows stays one step.
   */
  async function buildSliced(): Promise<Structure> {
    for (;;) {
      const start = counters();
      const nodes: TopoNode[] = [];
      for (let after: string | null = null; ; await nextTurn()) {
        const slice = q.nodes({ after, limit: SLICE });
        for (const n of slice) nodes.push(n);
        if (slice.length < SLICE) break;
        after = slice[slice.length - 1]!.guid;
      }
      const links: TopoLinkRow[] = [];
      for (let after = -Infinity; ; ) {
        await nextTurn();
        const slice = rowsAfter.all(after, SLICE) as unknown[][];
        for (const r of slice) links.push(linkRow(r));
        if (slice.length < SLICE) break;
        after = slice[slice.length - 1]![0] as number;
      }
      await nextTurn();
      const end = counters();
      if (end.shape === start.shape) {
        // Two steps with a turn between (the columns, then their JSON): each ~0.2-0.4 s at 45k GPUs.
        const reply = topologyColumnsOf(0, nodes, links);
        await nextTurn();
        return {
          shape: start.shape,
          stamp: end.colour === start.colour ? stampOf(start) : '',
          head: headOf(reply),
          ids: reply.links.id,
        };
      }
    }
  }

  /**
   * The problems list, or null when a link came or went since `s` was built (rebuild it; a
   * rebuilt structure lists every link it can: `strict` off, the rest are left out as before).
   */
  function problems(s: Structure, strict: boolean): [number, LinkHealth, string | null][] | null {
    const out: [number, LinkHealth, string | null][] = [];
    for (const [id, present, health, reason] of unusual.all() as [number, number, LinkHealth, string | null][]) {
      const i = indexIn(s.ids, id);
      const shown = present === 1 || health === 'down';
      if (strict && shown !== (i !== undefined)) return null;
      if (i !== undefined && (health !== 'ok' || reason !== null)) out.push([i, health, reason]);
    }
    return out.sort((x, y) => x[0] - y[0]);
  }

  return {
    /** What the reply shows now, as change counters: a stamp for caches of the reply. */
    stamp(): string {
      return stampOf(counters());
    },
    /**
     * Resolves once the kept columns are those of the topology now, building them in slices
     * when they are not: one build at a time, shared by every caller (the first request after a
     * start, and the build server.ts starts after its start-up scans).
     */
    async ready(): Promise<void> {
      for (;;) {
        const c = counters();
        const stamp = stampOf(c);
        // Kept when built at this very state, or when no link came or went since (checked once per state).
        if (cached?.shape === c.shape && (cached.stamp === stamp || checked === stamp || problems(cached, true))) {
          checked = stamp;
          return;
        }
        pending ??= buildSliced()
          .then((s) => {
            cached = s;
          })
          .finally(() => {
            pending = null;
          });
        await pending;
      }
    },
    parts(generatedAt: number): TopologyParts {
      const c = counters();
      if (cached?.shape !== c.shape) cached = build(c);
      // A structure built at this very state lists every link it can (a rebuild gives the same).
      let p = problems(cached, cached.stamp !== stampOf(c));
      if (!p) {
        cached = build(c);
        p = problems(cached, false)!;
      }
      const tail = Buffer.from(`"generatedAt":${generatedAt},"problems":${JSON.stringify(p)}}`);
      return { head: cached.head, tail, problems: p };
    },
    /** The whole reply as text. */
    json(generatedAt: number): string {
      const { head, tail } = this.parts(generatedAt);
      return Buffer.concat([head, tail]).toString();
    },
  };
}
export type TopologyJson = ReturnType<typeof createTopologyJson>;
