/**
 * `ibwatch import diags FILE`: a pasted infiniband-diags output stored as the live scans store
 * theirs, in the pipeline's one transaction (scan kind `import-diags`, the file in the summary):
 * ibqueryerrors and perfquery counters through the PM path (absolute counters, as a sweep reads
 * them); ibstat / ibstatus port states judged for readiness (`hca-port-*` findings of the ports
 * in the paste); iblinkinfo judged by the topology scan's link rules (iblinkinfo-import.ts).
 */
import {
  type CounterName,
  type Guid,
  HCA_PORT_KINDS,
  hcaPortRef,
  hcaPortVerdicts,
  type PortCounters,
  subjectKey,
} from '@ibwatch/fabric';
import { ibqePortCounters, perfqueryPortCounters } from '@ibwatch/parsers';
import type { Config } from '../config.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { iteratePortGuids, lidNodes, nodeGuids } from '../db/graph-queries.ts';
import type { Db } from '../db/open-db.ts';
import type { NameBook } from '../names.ts';
import type { DiagsPaste } from '../sources/diags-file.ts';
import type { CounterBaseline } from './counter-baseline.ts';
import { syncFindings } from './findings-sync.ts';
import { storeIblinkinfoPaste } from './iblinkinfo-import.ts';
import { storePm } from './pm-store.ts';

type Summary = Record<string, number | string>;

/** Counters of ports the topology places, into the PM path; the rest counted in the summary. */
function storeCounters(
  ctx: { db: Db; config: Config; names: NameBook; baseline: CounterBaseline; scanId: number; at: number },
  counters: PortCounters[],
): Summary {
  if (counters.length === 0) return { ports: 0 };
  const pm = storePm(ctx.db, ctx.config, ctx.names, ctx.baseline, ctx.scanId, ctx.at, counters);
  const out: Summary = { ports: counters.length };
  for (const [k, v] of Object.entries(pm)) out[`pm.${k}`] = v;
  return out;
}

const itemsOf = (c: Partial<Record<CounterName | string, bigint>>) =>
  Object.entries(c)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');

/** One `ca/port state/phys rate layer` entry per port, for the CLI and the scan's summary. */
function hcaLine(p: Extract<DiagsPaste, { format: 'ibstat' | 'ibstatus' }>['ports'][number]): string {
  const rate = p.rateGbps === undefined ? '' : ` ${p.rateGbps}G`;
  const fw = p.firmware ? ` fw ${p.firmware}` : '';
  const lid = p.ethernet ? '' : ` lid ${p.baseLid ?? '?'} sm ${p.smLid ?? '?'}`;
  return `${p.ca}/${p.portNum} ${p.state}/${p.physState ?? '?'}${rate} ${p.linkLayer ?? 'InfiniBand?'}${lid}${fw}`;
}

export function storeDiagsPaste(
  db: Db,
  config: Config,
  names: NameBook,
  baseline: CounterBaseline,
  scanId: number,
  at: number,
  paste: DiagsPaste,
): Summary {
  const ctx = { db, config, names, baseline, scanId, at };
  const head: Summary = { file: paste.file, format: paste.format };
  switch (paste.format) {
    case 'ibqueryerrors': {
      // A headerless excerpt's GUID is a port's, or a switch's own: both are looked up.
      const map = new Map<Guid, Guid>(iteratePortGuids(db) as Iterable<[Guid, Guid]>);
      const nodes = nodeGuids(db);
      for (const p of paste.ports) if (!map.has(p.guid) && nodes.has(p.guid)) map.set(p.guid, p.guid);
      const { counters, unresolved } = ibqePortCounters(paste.ports, map);
      const all = paste.ports.filter((p) => p.port === 'ALL');
      const out: Summary = { ...head, portLines: paste.ports.length, unresolved: unresolved.length };
      // `port ALL` is a node's sum over its ports: shown, not stored as any one port's.
      all.forEach((p, i) => {
        out[`aggregate.${i + 1}`] = `${p.nodeGuid ?? p.guid} port ALL: ${itemsOf(p.counters)}`;
      });
      unresolved.forEach((p, i) => {
        if (i < 20) out[`unplaced.${i + 1}`] = `${p.guid} port ${p.port} (not in the topology): ${itemsOf(p.counters)}`;
      });
      return { ...out, ...storeCounters(ctx, counters) };
    }
    case 'perfquery': {
      const lids = lidNodes(db);
      const counters = perfqueryPortCounters(paste.blocks, lids);
      const unplaced = new Set(paste.blocks.filter((b) => !lids.has(b.lid)).map((b) => b.lid));
      return {
        ...head,
        blocks: paste.blocks.length,
        unplacedLids: [...unplaced].join(' '),
        ...storeCounters(ctx, counters),
      };
    }
    case 'iblinkinfo':
      return { ...head, ...storeIblinkinfoPaste(db, config, names, at, paste.ports) };
    default: {
      const map = new Map<Guid, Guid>(iteratePortGuids(db) as Iterable<[Guid, Guid]>);
      const nodeOf = (g: Guid) => map.get(g);
      const verdicts = hcaPortVerdicts(paste.ports, config.expectedRate, nodeOf, paste.file);
      // Only the ports of this paste are judged: another node's findings stay as they are.
      const mine = new Set<string>();
      for (const p of paste.ports) {
        const ref = p.ethernet ? undefined : hcaPortRef(p, nodeOf);
        if (ref) mine.add(subjectKey({ kind: 'port', port: ref }));
      }
      const repo = createFindingsRepo(db);
      const scoped = { ...repo, liveKeys: () => repo.liveKeys().filter((f) => mine.has(f.subjectKey)) };
      const kinds = new Set<string>(HCA_PORT_KINDS);
      const sync = syncFindings(scoped, verdicts, (k) => kinds.has(k), at, config.autoResolveMin * 60_000);
      const out: Summary = {
        ...head,
        ports: paste.ports.length,
        infiniband: paste.ports.filter((p) => !p.ethernet).length,
        ethernet: paste.ports.filter((p) => p.ethernet).length,
        findings: verdicts.length,
        findingsOpened: sync.opened,
      };
      paste.ports.forEach((p, i) => {
        out[`port.${i + 1}`] = hcaLine(p);
      });
      return out;
    }
  }
}
