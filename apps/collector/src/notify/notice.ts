/**
 * One active finding as the outside world is told about it: Alertmanager labels and annotations
 * (docs/alerting.md), the webhook's finding fields, and the link back to the dashboard.
 */
import { linkKey, PHYSICAL_KINDS, portKey, type PortRef } from '@ibwatch/fabric';
import type { AlertingFinding, NotifyRepo } from '../db/notify-repo.ts';
import type { NameBook } from '../names.ts';

export const ALERTNAME = 'IbwatchFinding';

export interface Notice {
  findingId: number;
  /** Alertmanager groups, routes and deduplicates on these: only values that stay put while the finding lives. */
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** ISO-8601: when the finding was first seen. */
  startsAt: string;
  /** The worklist entry (or the findings of its kind) on the dashboard. */
  link: string;
}

/** Webhook body (docs/alerting.md): one per open and per resolve. */
export interface WebhookBody {
  event: 'open' | 'resolve';
  /** ISO-8601 time of the event as the collector saw it. */
  at: string;
  fabric: string;
  finding: {
    id: number;
    kind: string;
    severity: string;
    title: string;
    reason: string;
    node: string | null;
    port: number | null;
    rack: string | null;
    remoteNode: string | null;
    remotePort: number | null;
    firstSeen: string;
  };
  labels: Record<string, string>;
  link: string;
}

interface End {
  guid: string;
  port: number;
}

const asEnd = (x: unknown): End | null => {
  const p = x as Partial<PortRef> | undefined;
  return typeof p?.nodeGuid === 'string' && typeof p.portNum === 'number'
    ? { guid: p.nodeGuid, port: p.portNum }
    : null;
};

/** The finding's near and far end, where it has ports: a link's two ends, a port and its cabled peer. */
function endsOf(f: AlertingFinding, repo: NotifyRepo): { near: End | null; far: End | null; guid: string | null } {
  const s = f.subject;
  if (s.kind === 'link') return { near: asEnd(s.a), far: asEnd(s.b), guid: null };
  if (s.kind === 'port') {
    const near = asEnd(s.port);
    return { near, far: near ? repo.remoteOf(near.guid, near.port) : null, guid: null };
  }
  if ((s.kind === 'node' || s.kind === 'sm') && typeof s.guid === 'string')
    return { near: null, far: null, guid: s.guid };
  return { near: null, far: null, guid: null };
}

/** Dashboard path of a finding: its worklist entry when the worklist lists its kind, else its kind's findings. */
function pathOf(f: AlertingFinding, near: End | null, far: End | null): string {
  if (near && PHYSICAL_KINDS.includes(f.kind)) {
    const a = { nodeGuid: near.guid, portNum: near.port };
    const key = far ? linkKey(a, { nodeGuid: far.guid, portNum: far.port }) : portKey(a);
    return `/worklist?focus=${encodeURIComponent(key)}`;
  }
  return `/findings?kind=${encodeURIComponent(f.kind)}&state=active`;
}

export interface NoticeContext {
  repo: NotifyRepo;
  names: NameBook;
  fabric: string;
  /** Base URL of the dashboard, no trailing slash. */
  baseUrl: string;
}

export function noticeOf(f: AlertingFinding, c: NoticeContext): Notice {
  const { near, far, guid } = endsOf(f, c.repo);
  const nameOf = (g: string) => c.names.name(g, c.repo.nodeDescription(g));
  const labels: Record<string, string> = { alertname: ALERTNAME, fabric: c.fabric, severity: f.severity, kind: f.kind };
  const nodeGuid = near?.guid ?? guid;
  if (nodeGuid) {
    labels.node = nameOf(nodeGuid);
    const rack = c.names.rack(nodeGuid);
    if (rack) labels.rack = rack;
  }
  if (near) labels.port = String(near.port);
  if (far) {
    labels.remote_node = nameOf(far.guid);
    labels.remote_port = String(far.port);
  }
  // Subjects without a port or node (an nccl-tests run, the subnet as a whole) still need labels
  // that tell two findings of one kind apart.
  if (!near && !guid) labels.subject = f.subjectKey;
  const link = c.baseUrl + pathOf(f, near, far);
  return {
    findingId: f.id,
    labels,
    annotations: {
      summary: f.title,
      description: f.short ?? f.title,
      link,
      finding_id: String(f.id),
    },
    startsAt: new Date(f.firstSeen).toISOString(),
    link,
  };
}

/** The same labels, whatever order they were built in. */
export function sameLabels(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

export function webhookBody(n: Notice, event: WebhookBody['event'], at: number): WebhookBody {
  const l = n.labels;
  return {
    event,
    at: new Date(at).toISOString(),
    fabric: l.fabric ?? '',
    finding: {
      id: n.findingId,
      kind: l.kind ?? '',
      severity: l.severity ?? '',
      title: n.annotations.summary ?? '',
      reason: n.annotations.description ?? '',
      node: l.node ?? null,
      port: l.port ? Number(l.port) : null,
      rack: l.rack ?? null,
      remoteNode: l.remote_node ?? null,
      remotePort: l.remote_port ? Number(l.remote_port) : null,
      firstSeen: n.startsAt,
    },
    labels: l,
    link: n.link,
  };
}
