/**
 * As-built validation: the fabric now against the cabling it was built with (a stored baseline,
 * from a topology scan or an `ibnetdiscover` topology file).
 */
import type { Severity, Verdict } from './findings.ts';
import { linkKey, portKey } from './findings.ts';
import { SPEED_RANK, WIDTH_LANES } from './rates.ts';
import type { Guid, LinkSpeed, LinkWidth, NodeType, PortRef } from './types.ts';

/** One link as built or as now: its ends and the rate it trained at (when known). */
export interface AsBuiltLink {
  a: PortRef;
  b: PortRef;
  width?: LinkWidth | null;
  speed?: LinkSpeed | null;
}

export type ValidationKind = 'missing-link' | 'extra-link' | 'moved-cable' | 'wrong-rail' | 'degraded';

/** One line of the topology validation report. */
export interface ValidationRow {
  kind: ValidationKind;
  /** The link as built (null for an extra link). */
  asBuilt: AsBuiltLink | null;
  /** The link now (null for a missing link). */
  now: AsBuiltLink | null;
  /** In plain words, with names. */
  detail: string;
}

export interface AsBuiltOptions {
  /** A node's name (inventory, else NodeDescription). */
  name: (guid: Guid) => string;
  /** A node's type, when known (HCA ends decide a wrong rail). */
  type: (guid: Guid) => NodeType | undefined;
  /** The rail of a leaf (majority rail of its HCAs), when the fabric is rail-optimised. */
  leafRail: (guid: Guid) => number | undefined;
}

const SEVERITY: Record<ValidationKind, Severity> = {
  'missing-link': 'major',
  'extra-link': 'minor',
  'moved-cable': 'major',
  'wrong-rail': 'major',
  degraded: 'major',
};

const rateText = (l: AsBuiltLink) => `${l.width ?? '?'} ${l.speed ?? '?'}`;

/**
 * Compares the links now with the links as built. A missing link and an extra link between the
 * same two nodes, or sharing one exact end (the other end moved), are one moved cable; when the
 * moved end is an HCA's and its leaf is now on another rail than the as-built leaf, a wrong
 * rail. A link in both that trained narrower or slower than as built is degraded. Rows are in
 * kind order, then by link key.
 */
export function validateAsBuilt(asBuilt: readonly AsBuiltLink[], now: readonly AsBuiltLink[], o: AsBuiltOptions) {
  const pl = (p: PortRef) => `${o.name(p.nodeGuid)} port ${p.portNum}`;
  const ll = (l: AsBuiltLink) => `${pl(l.a)} <-> ${pl(l.b)}`;
  const nowByKey = new Map(now.map((l) => [linkKey(l.a, l.b), l]));
  const builtKeys = new Set(asBuilt.map((l) => linkKey(l.a, l.b)));
  const extra = now.filter((l) => !builtKeys.has(linkKey(l.a, l.b)));
  const used = new Set<AsBuiltLink>();
  const pairKey = (l: AsBuiltLink) => [l.a.nodeGuid, l.b.nodeGuid].sort().join('~');
  const extraByPair = new Map<string, AsBuiltLink[]>();
  const extraByPort = new Map<string, AsBuiltLink>();
  for (const l of extra) {
    extraByPair.set(pairKey(l), [...(extraByPair.get(pairKey(l)) ?? []), l]);
    extraByPort.set(portKey(l.a), l);
    extraByPort.set(portKey(l.b), l);
  }
  const rows: ValidationRow[] = [];
  for (const b of asBuilt) {
    const n = nowByKey.get(linkKey(b.a, b.b));
    if (n) {
      const narrower = b.width && n.width && WIDTH_LANES[n.width] < WIDTH_LANES[b.width];
      const slower = b.speed && n.speed && SPEED_RANK[n.speed] < SPEED_RANK[b.speed];
      if (narrower || slower)
        rows.push({ kind: 'degraded', asBuilt: b, now: n, detail: `${ll(n)}: ${rateText(n)}, built ${rateText(b)}` });
      continue;
    }
    const moved =
      extraByPair.get(pairKey(b))?.find((l) => !used.has(l)) ??
      [extraByPort.get(portKey(b.a)), extraByPort.get(portKey(b.b))].find((l) => l !== undefined && !used.has(l));
    if (!moved) {
      rows.push({ kind: 'missing-link', asBuilt: b, now: null, detail: `${ll(b)} is missing` });
      continue;
    }
    used.add(moved);
    rows.push(movedRow(b, moved, o, pl, ll));
  }
  for (const l of extra)
    if (!used.has(l))
      rows.push({ kind: 'extra-link', asBuilt: null, now: l, detail: `${ll(l)} is not in the as-built` });
  const order: ValidationKind[] = ['wrong-rail', 'moved-cable', 'missing-link', 'degraded', 'extra-link'];
  const keyOf = (r: ValidationRow) => {
    const l = (r.now ?? r.asBuilt)!;
    return linkKey(l.a, l.b);
  };
  rows.sort((x, y) => order.indexOf(x.kind) - order.indexOf(y.kind) || (keyOf(x) < keyOf(y) ? -1 : 1));
  return rows;
}

function movedRow(
  b: AsBuiltLink,
  n: AsBuiltLink,
  o: AsBuiltOptions,
  pl: (p: PortRef) => string,
  ll: (l: AsBuiltLink) => string,
): ValidationRow {
  // The HCA end that stayed, and the switch it was and is cabled to: another rail is worse than another port.
  for (const [x, was] of [
    [b.a, b.b],
    [b.b, b.a],
  ] as const) {
    if (o.type(x.nodeGuid) !== 'ca') continue;
    const peerNow = portKey(n.a) === portKey(x) ? n.b : portKey(n.b) === portKey(x) ? n.a : undefined;
    if (!peerNow || peerNow.nodeGuid === was.nodeGuid) continue;
    const r0 = o.leafRail(was.nodeGuid);
    const r1 = o.leafRail(peerNow.nodeGuid);
    if (r0 !== undefined && r1 !== undefined && r0 !== r1)
      return {
        kind: 'wrong-rail',
        asBuilt: b,
        now: n,
        detail: `${pl(x)} is on ${pl(peerNow)} (rail ${r1}); built on ${pl(was)} (rail ${r0})`,
      };
  }
  return { kind: 'moved-cable', asBuilt: b, now: n, detail: `${ll(n)}; built as ${ll(b)}` };
}

/** The findings of a validation: one per row, on the link as it is now (as built when missing). */
export function asBuiltVerdicts(rows: readonly ValidationRow[]): Verdict[] {
  return rows.map((r) => {
    const l = (r.now ?? r.asBuilt)!;
    const short =
      r.kind === 'degraded'
        ? `slower than built: ${rateText(r.now!)} (built ${rateText(r.asBuilt!)})`
        : r.kind.replace('-', ' ') + ' vs as-built';
    return {
      kind: `baseline-${r.kind}`,
      severity: SEVERITY[r.kind],
      subject: { kind: 'link', a: l.a, b: l.b },
      title: `As-built: ${r.detail}`,
      short,
      evidence: {
        asBuilt: r.asBuilt ? { a: portKey(r.asBuilt.a), b: portKey(r.asBuilt.b) } : null,
        now: r.now ? { a: portKey(r.now.a), b: portKey(r.now.b) } : null,
      },
    } satisfies Verdict;
  });
}
