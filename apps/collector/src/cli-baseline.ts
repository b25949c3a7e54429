// `ibwatch baseline` (the topology validation report), `baseline set` (the as-built from the
// current topology) and `baseline import FILE` (from an ibnetdiscover topology file).
import { linkKey, portKey, type BaselineValidationReply, type NodeType } from '@ibwatch/fabric';
import { parseIbnetdiscover } from '@ibwatch/parsers';
import type { Context } from './context.ts';
import { validationReport } from './analysis/as-built.ts';
import { createAsBuiltRepo, nodeFacts, presentLinksWithRate, type StoredAsBuiltLink } from './db/as-built-repo.ts';
import { readInputFile } from './input/input-file.ts';

const fmtTime = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19) + 'Z';

/** The report as text, one line per finding: what `ibwatch baseline` prints and the lab test shows. */
export function formatValidation(r: BaselineValidationReply): string[] {
  if (!r.baseline) return ['no as-built set: `ibwatch baseline set` or `ibwatch baseline import FILE`'];
  const out = [
    `Topology validation at ${fmtTime(r.checkedAt)}: as-built of ${fmtTime(r.baseline.setAt)} ` +
      `(${r.baseline.source}, ${r.baseline.links} links), ${r.linksNow} links now`,
    Object.entries(r.counts)
      .map(([k, n]) => `${k} ${n}`)
      .join(', '),
  ];
  for (const row of r.rows) out.push(`  ${row.kind.padEnd(12)} ${row.detail}`);
  if (r.rows.length === 0) out.push('  cabled as built');
  return out;
}

/** The as-built links of an ibnetdiscover topology file (one per cable, rate from either end). */
export function asBuiltFromIbnetdiscover(text: string, file: string): StoredAsBuiltLink[] {
  const topo = parseIbnetdiscover(text, { file }).value;
  const node = new Map(topo.nodes.map((n) => [n.guid, n]));
  const port = new Map(topo.ports.map((p) => [portKey(p), p]));
  const seen = new Set<string>();
  const out: StoredAsBuiltLink[] = [];
  for (const l of topo.links) {
    const k = linkKey(l.a, l.b);
    if (seen.has(k)) continue;
    seen.add(k);
    const pa = port.get(portKey(l.a)) ?? port.get(portKey(l.b));
    out.push({
      a: l.a,
      b: l.b,
      aName: node.get(l.a.nodeGuid)?.description ?? null,
      aType: node.get(l.a.nodeGuid)?.type ?? null,
      bName: node.get(l.b.nodeGuid)?.description ?? null,
      bType: node.get(l.b.nodeGuid)?.type ?? null,
      width: pa?.widthActive ?? null,
      speed: pa?.speedActive ?? null,
    });
  }
  return out;
}

/** Runs `ibwatch baseline [set | import FILE]`; returns the exit code. */
export function baselineCommand(
  ctx: Context,
  args: readonly string[],
  json: boolean,
  out: (s: string) => void,
): number {
  const [sub, file] = args;
  const repo = createAsBuiltRepo(ctx.db);
  if (sub === 'set' || sub === 'import') {
    let links: StoredAsBuiltLink[];
    let source: string;
    if (sub === 'set') {
      const facts = nodeFacts(ctx.db);
      const fact = (g: string) => facts.get(g);
      links = presentLinksWithRate(ctx.db).map((l) => ({
        ...l,
        aName: fact(l.a.nodeGuid)?.description ?? null,
        aType: (fact(l.a.nodeGuid)?.type as NodeType | undefined) ?? null,
        bName: fact(l.b.nodeGuid)?.description ?? null,
        bType: (fact(l.b.nodeGuid)?.type as NodeType | undefined) ?? null,
      }));
      if (links.length === 0) throw new Error('no topology stored yet: run `ibwatch scan --kind topology` first');
      source = 'topology scan';
    } else {
      if (!file) throw new Error('usage: ibwatch baseline import FILE (an ibnetdiscover topology file)');
      links = asBuiltFromIbnetdiscover(readInputFile(file, { format: 'ibnetdiscover' }).toString('utf8'), file);
      if (links.length === 0) throw new Error(`${file}: no links in the topology file`);
      source = `ibnetdiscover file ${file}`;
    }
    const at = Date.now();
    repo.replace(links, source, at);
    if (json) out(JSON.stringify(repo.info()));
    else out(`as-built set: ${links.length} links from ${source}; the next topology scan validates against it`);
    return 0;
  }
  if (sub !== undefined)
    throw new Error(`unknown baseline command ${sub} (expected: baseline, baseline set, baseline import FILE)`);
  const r = validationReport(ctx.db, ctx.names);
  if (json) out(JSON.stringify(r));
  else for (const line of formatValidation(r)) out(line);
  return r.rows.length === 0 ? 0 : 1;
}
