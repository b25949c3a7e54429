import type { LinkEnd, TopoLink, TopoNode } from '@ibwatch/fabric';
import { Badge } from '../../components/Badge.tsx';
import { Link } from '../../components/Link.tsx';
import { healthLook } from '../../lib/status.ts';
import { portHref } from '../../router.ts';
import { HEALTHS, linkRateText, otherEnd, type Selection, type TopoIndex } from '@ibwatch/fabric/topology-view';

const MAX_LIST = 60;

/** What a node is, in words: tiers the layout has no row of its own for are spelt out. */
function nodeKind(n: TopoNode): string {
  if (n.tier === 'aggregation')
    return 'SHARP Aggregation Node (in-network reduction, inside the switch it is cabled to)';
  if (n.tier === 'unknown') return `${n.type}, no tier: no HCA reaches it`;
  return `${n.type} (${n.tier})`;
}

function End({ end, title }: { end: LinkEnd; title: string }) {
  return (
    <div className="link-end">
      <h4>{title}</h4>
      <dl className="kv">
        <dt>Name</dt>
        <dd>{end.name}</dd>
        <dt>GUID</dt>
        <dd className="mono">{end.guid}</dd>
        <dt>Port</dt>
        <dd>
          <Link href={portHref(end.guid, end.port)} data-testid="topology-port-link">
            port {end.port} →
          </Link>
        </dd>
        <dt>LID</dt>
        <dd>{end.lid ?? '—'}</dd>
        <dt>Rack</dt>
        <dd>{end.rack ?? '—'}</dd>
      </dl>
    </div>
  );
}

function LinkList({
  idx,
  links,
  from,
  onSelect,
}: {
  idx: TopoIndex;
  links: number[];
  from: string | null;
  onSelect: (s: Selection) => void;
}) {
  const sorted = [...links].sort((x, y) => idx.health[y] - idx.health[x]);
  return (
    <ul className="links">
      {sorted.slice(0, MAX_LIST).map((li) => {
        const l: TopoLink = idx.link(li);
        const near = from && l.b.guid === from ? l.b : l.a;
        const far = from ? otherEnd(l, from) : l.b;
        return (
          <li key={l.id}>
            <button type="button" className="linklike" onClick={() => onSelect({ type: 'link', id: l.id })}>
              {healthLook[l.health].icon} {from ? `p${near.port}` : `${l.a.name} p${l.a.port}`} → {far.name} p{far.port}
            </button>{' '}
            {l.health !== 'ok' && <span className="muted small">{healthLook[l.health].label}</span>}
          </li>
        );
      })}
      {sorted.length > MAX_LIST && <li className="muted">…and {sorted.length - MAX_LIST} more</li>}
    </ul>
  );
}

function healthCounts(idx: TopoIndex, links: number[]): string {
  const c = { ok: 0, degraded: 0, errors: 0, down: 0 };
  for (const li of links) c[HEALTHS[idx.health[li]]]++;
  return (Object.keys(c) as (keyof typeof c)[])
    .filter((k) => c[k] > 0)
    .map((k) => `${healthLook[k].icon} ${c[k]} ${healthLook[k].label.toLowerCase()}`)
    .join(' · ');
}

export function DetailsPanel({
  idx,
  sel,
  onSelect,
  problems,
}: {
  idx: TopoIndex;
  sel: Selection;
  onSelect: (s: Selection) => void;
  problems: number[];
}) {
  if (sel?.type === 'link') {
    const li = idx.linkIndexOf(sel.id);
    if (li === undefined) return <p className="muted">Link {sel.id} is not in this topology.</p>;
    const l = idx.link(li);
    return (
      <div data-testid="topology-details" data-kind="link">
        <h2>Link #{l.id}</h2>
        <p>
          <Badge look={healthLook[l.health]} testid="topology-link-health" /> <span className="muted">{l.tier}</span>
        </p>
        {l.reason && <p data-testid="topology-link-reason">{l.reason}</p>}
        <p data-testid="topology-link-rate">{linkRateText(l)}</p>
        <End end={l.a} title="End A" />
        <End end={l.b} title="End B" />
      </div>
    );
  }
  if (sel?.type === 'node') {
    const n = idx.node(sel.guid);
    if (!n) return <p className="muted">Node {sel.guid} is not in this topology.</p>;
    const links = idx.linksOf(n.guid);
    return (
      <div data-testid="topology-details" data-kind="node">
        <h2>{n.name}</h2>
        <dl className="kv">
          <dt>Type</dt>
          <dd data-testid="topology-node-type">{nodeKind(n)}</dd>
          <dt>GUID</dt>
          <dd className="mono">{n.guid}</dd>
          <dt>LID</dt>
          <dd>{n.lid ?? '—'}</dd>
          <dt>Rack</dt>
          <dd>{n.rack ?? '—'}</dd>
          {n.host && (
            <>
              <dt>Host</dt>
              <dd>{n.host}</dd>
            </>
          )}
          {n.rail !== null && (
            <>
              <dt>Rail</dt>
              <dd>{n.rail}</dd>
            </>
          )}
        </dl>
        <h3>
          {links.length} link{links.length === 1 ? '' : 's'}
        </h3>
        <p className="small">{healthCounts(idx, links)}</p>
        <LinkList idx={idx} links={links} from={n.guid} onSelect={onSelect} />
      </div>
    );
  }
  if (sel?.type === 'group') {
    const leaf = sel.leaf ? idx.node(sel.leaf) : undefined;
    const hcaLinks = sel.leaf ? idx.linksOf(sel.leaf).filter((li) => idx.linkTierOf[li] === 'hca-leaf') : [];
    const hosts = new Set<string>();
    const leafAt = idx.nodeIndex.get(sel.leaf);
    for (const li of hcaLinks) {
      const far = idx.endA[li] === leafAt ? idx.endB[li] : idx.endA[li];
      const h = idx.reply.nodes.host[far];
      if (h) hosts.add(h);
    }
    return (
      <div data-testid="topology-details" data-kind="group">
        <h2>HCAs under {leaf?.name ?? 'no leaf'}</h2>
        <p>
          {hcaLinks.length} HCA links from {hosts.size} hosts. {healthCounts(idx, hcaLinks)}
        </p>
        <p className="muted small">Zoom in to see each HCA.</p>
        <LinkList idx={idx} links={hcaLinks} from={sel.leaf} onSelect={onSelect} />
      </div>
    );
  }
  return (
    <div data-testid="topology-details" data-kind="none">
      <h2>Problem links ({problems.length.toLocaleString()})</h2>
      {problems.length === 0 ? (
        <p>● No problem links: no link has a finding now.</p>
      ) : (
        <>
          <p className="muted small">Click a switch or link on the map, or pick one here.</p>
          <LinkList idx={idx} links={problems} from={null} onSelect={onSelect} />
        </>
      )}
    </div>
  );
}
