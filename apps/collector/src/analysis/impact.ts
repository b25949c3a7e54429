/**
 * The blast radius of worklist entries (docs/impact.md): the @ibwatch/fabric computation on the
 * stored topology, plus the running Slurm jobs on the hosts behind each cable.
 */
import {
  blastRadius,
  impactIndex,
  nominalGbps,
  SPEED_RANK,
  WIDTH_LANES,
  type EntryImpact,
  type ImpactIndex,
  type ImpactJob,
  type ImpactLink,
  type LinkSpeed,
  type LinkWidth,
  type PortRef,
} from '@ibwatch/fabric';
import type { Config } from '../config.ts';
import type { Db } from '../db/open-db.ts';
import type { WorklistLinkRow } from '../db/worklist-queries.ts';
import { createSlurmRepo, type StoredJob } from '../db/slurm-repo.ts';

export interface ImpactSettings {
  gpusPerHost?: number;
  expectedGbps?: number;
  railPattern?: RegExp;
}

export function impactSettings(config: Pick<Config, 'impact' | 'expectedRate'>): ImpactSettings {
  return {
    gpusPerHost: config.impact.gpusPerHost,
    expectedGbps: nominalGbps(config.expectedRate.width, config.expectedRate.speed),
    ...(config.impact.railPattern ? { railPattern: config.impact.railPattern } : {}),
  };
}

/** Current rate of a stored link: 0 when gone or not Active at both ends, null when unknown. */
function rateOf(r: WorklistLinkRow): number | null {
  if (!r.present) return 0;
  if ((r.as && r.as !== 'Active') || (r.bs && r.bs !== 'Active')) return 0;
  const widths = [r.aw, r.bw].filter((w): w is LinkWidth => w !== null && w in WIDTH_LANES);
  const speeds = [r.asp, r.bsp].filter((s): s is LinkSpeed => s !== null && s in SPEED_RANK);
  if (!widths.length || !speeds.length) return null;
  const w = widths.reduce((x, y) => (WIDTH_LANES[x] <= WIDTH_LANES[y] ? x : y));
  const s = speeds.reduce((x, y) => (SPEED_RANK[x] <= SPEED_RANK[y] ? x : y));
  return nominalGbps(w, s);
}

/** The blast-radius index of the stored topology, from the link and node rows the worklist already read. */
export function buildImpactIndex(
  rows: readonly WorklistLinkRow[],
  nodeRows: readonly { guid: string; type: string; description: string; tier: string | null }[],
  settings: ImpactSettings = {},
): ImpactIndex {
  const links: ImpactLink[] = rows.map((r) => ({
    a: { nodeGuid: r.ag, portNum: r.ap },
    b: { nodeGuid: r.bg, portNum: r.bp },
    rateGbps: rateOf(r),
  }));
  const nodes = nodeRows.map((n) => ({
    guid: n.guid,
    type: n.type as 'switch' | 'ca',
    description: n.description,
    tier: n.tier as 'hca' | null,
  }));
  return impactIndex({ nodes, links }, settings);
}

/** Host names compared without case and domain, as Slurm and NodeDescriptions may differ. */
const hostKey = (h: string) => h.toLowerCase().split('.')[0]!;

/** The running jobs, by host; read once per worklist build. */
export interface JobBook {
  byHost: Map<string, StoredJob[]>;
  at: number | null;
}

export function loadJobBook(db: Db): JobBook {
  const repo = createSlurmRepo(db);
  const byHost = new Map<string, StoredJob[]>();
  for (const j of repo.list()) {
    if (j.state !== 'RUNNING') continue;
    for (const h of j.hosts) {
      const k = hostKey(h);
      const list = byHost.get(k);
      if (list) list.push(j);
      else byHost.set(k, [j]);
    }
  }
  return { byHost, at: repo.seenAt() };
}

/** The blast radius of the cable with these ends and the jobs on its hosts. */
export function entryImpact(index: ImpactIndex, jobs: JobBook, ends: readonly PortRef[]): EntryImpact {
  const r = blastRadius(index, ends);
  const found = new Map<string, ImpactJob>();
  const drain: string[] = [];
  for (const host of r.hosts) {
    const on = jobs.byHost.get(hostKey(host));
    if (!on?.length) continue;
    drain.push(host);
    for (const j of on) {
      const job = found.get(j.id) ?? { id: j.id, name: j.name, user: j.user, nodes: j.nodeCount, hosts: [] };
      job.hosts.push(host);
      found.set(j.id, job);
    }
  }
  return {
    kind: r.kind,
    hosts: r.hosts,
    gpus: r.gpus,
    rails: r.rails,
    uplink: r.uplink && {
      switch: r.uplink.switchName,
      uplinks: r.uplink.uplinks,
      totalGbps: r.uplink.totalGbps,
      lostGbps: r.uplink.lostGbps,
      share: r.uplink.share,
      switchShare: r.uplink.switchShare,
    },
    pods: r.pods,
    jobs: [...found.values()].sort((x, y) => y.nodes - x.nodes || x.id.localeCompare(y.id, 'en', { numeric: true })),
    drain,
    jobsAt: jobs.at,
  };
}
