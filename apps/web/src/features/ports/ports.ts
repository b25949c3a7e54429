/**
 * Pure shaping for the ports list and port detail: query building, pagination, counter points
 * → one chart series per counter, state changes → markers, actual vs expected rate.
 */
import type { QueryString } from '@ibwatch/fabric';
import {
  SPEED_RANK,
  WIDTH_LANES,
  type CounterHistoryReply,
  type CounterPoint,
  type ExpectedRate,
  type LinkSpeed,
  type LinkWidth,
  type StateChange,
} from '@ibwatch/fabric';
import { intParam, serializeQuery, type Query } from '../../router.ts';
import { perHour } from './chart.ts';

export const RANGES = ['1h', '24h', '7d', '30d'] as const;
export type Range = (typeof RANGES)[number];
export const RANGE_MS: Record<Range, number> = {
  '1h': 3_600_000,
  '24h': 86_400_000,
  '7d': 604_800_000,
  '30d': 2_592_000_000,
};

export const PAGE_SIZES = [25, 50, 100, 200];

export interface PortsListState {
  q: string;
  state: string;
  sort: string;
  limit: number;
  offset: number;
}

export function parsePortsQuery(q: Query): PortsListState {
  const limit = intParam(q, 'limit', 50, 1, 500);
  return { q: q.q ?? '', state: q.state ?? '', sort: q.sort ?? '', limit, offset: intParam(q, 'offset', 0, 0) };
}

/** The API path for a list state; defaults are left out so URLs stay short. */
export function portsApiPath(s: PortsListState): `/api/ports${QueryString}` {
  return `/api/ports${serializeQuery({ q: s.q, state: s.state, sort: s.sort, limit: s.limit, offset: s.offset })}`;
}

/** Columns whose first click sorts descending: the most findings, the newest first. */
const DESCENDING_FIRST = new Set(['findings', 'lastSeen']);

/**
 * Clicking a column: ascending first (descending first for {@link DESCENDING_FIRST}), then
 * the other way (`-name` is descending), and back.
 */
export function nextSort(current: string, key: string): string {
  const first = DESCENDING_FIRST.has(key) ? `-${key}` : key;
  const second = first === key ? `-${key}` : key;
  return current === first ? second : first;
}

/** How the list is sorted by `key`, as aria-sort says it and the header's arrow shows it. */
export function sortDirection(sort: string, key: string): 'ascending' | 'descending' | 'none' {
  return sort === key ? 'ascending' : sort === `-${key}` ? 'descending' : 'none';
}

/**
 * A port's state in words: a port never cabled is `○ Unused`, not `✖ Down` (a switch's spare
 * ports would otherwise read as dozens of dead links).
 */
export function portStateText(p: { state: string | null; unused?: boolean }): string {
  if (p.unused) return '○ Unused';
  if (p.state === 'Active') return '● Active';
  if (p.state === 'Down') return '✖ Down';
  return p.state ? `◆ ${p.state}` : '—';
}

export interface PageInfo {
  from: number;
  to: number;
  total: number;
  prevOffset: number | null;
  nextOffset: number | null;
}

export function pageInfo(total: number, limit: number, offset: number, shown: number): PageInfo {
  return {
    from: shown === 0 ? 0 : offset + 1,
    to: offset + shown,
    total,
    prevOffset: offset > 0 ? Math.max(0, offset - limit) : null,
    nextOffset: offset + limit < total ? offset + limit : null,
  };
}

export interface CounterSeries {
  counter: string;
  /** Rates per hour (see chart.ts). */
  rows: { at: number; rate: number }[];
  /** Per hour. */
  threshold: number | null;
  max: number;
  overThreshold: boolean;
}

/**
 * Group points by counter, sorted by time, rates per hour (the API's are per second).
 * Counters with a threshold come first, then any with a non-zero rate, alphabetically;
 * all-zero counters without a threshold are returned apart so the page can say "N counters
 * stayed at zero" instead of drawing flat lines.
 */
export function counterSeries(
  points: readonly CounterPoint[],
  thresholds: CounterHistoryReply['thresholds'],
): {
  series: CounterSeries[];
  flat: string[];
} {
  const by = new Map<string, { at: number; rate: number }[]>();
  for (const p of points) {
    const rows = by.get(p.counter);
    const row = { at: p.at, rate: Number.isFinite(p.rate) ? perHour(p.rate) : 0 };
    if (rows) rows.push(row);
    else by.set(p.counter, [row]);
  }
  const series: CounterSeries[] = [];
  const flat: string[] = [];
  for (const [counter, rows] of by) {
    rows.sort((a, b) => a.at - b.at);
    const max = rows.reduce((m, r) => Math.max(m, r.rate), 0);
    const threshold = thresholds[counter] === undefined ? null : perHour(thresholds[counter]);
    if (max === 0 && threshold === null) {
      flat.push(counter);
      continue;
    }
    series.push({ counter, rows, threshold, max, overThreshold: threshold !== null && max > threshold });
  }
  series.sort(
    (a, b) =>
      Number(b.overThreshold) - Number(a.overThreshold) ||
      Number(b.threshold !== null) - Number(a.threshold !== null) ||
      a.counter.localeCompare(b.counter),
  );
  return { series, flat: flat.sort() };
}

export interface StateMarker {
  at: number;
  kind: 'down' | 'up' | 'change';
  label: string;
}

/** State changes → markers; `flaps` counts transitions into Down. */
export function stateMarkers(changes: readonly StateChange[]): { markers: StateMarker[]; flaps: number } {
  const sorted = [...changes].sort((a, b) => a.at - b.at);
  let flaps = 0;
  const markers = sorted.map((c): StateMarker => {
    const down = c.state === 'Down' || (c.physState !== null && c.physState !== 'LinkUp');
    const up = c.state === 'Active';
    if (down) flaps++;
    const rate = c.widthActive || c.speedActive ? ` ${c.widthActive ?? '?'} ${c.speedActive ?? '?'}` : '';
    return {
      at: c.at,
      kind: down ? 'down' : up ? 'up' : 'change',
      label: `${down ? '✖' : up ? '●' : '◆'} ${c.state ?? '?'}/${c.physState ?? '?'}${rate}`,
    };
  });
  return { markers, flaps };
}

export interface RateCheck {
  widthDegraded: boolean;
  speedDegraded: boolean;
  /** e.g. "1X instead of 4X". */
  text: string | null;
}

/** Compare the active width/speed with the fabric's expected rate. */
export function rateCheck(width: LinkWidth | null, speed: LinkSpeed | null, expected: ExpectedRate): RateCheck {
  const widthDegraded = width !== null && WIDTH_LANES[width] < WIDTH_LANES[expected.width];
  const speedDegraded = speed !== null && SPEED_RANK[speed] < SPEED_RANK[expected.speed];
  const parts: string[] = [];
  if (widthDegraded) parts.push(`width ${width} instead of ${expected.width}`);
  if (speedDegraded) parts.push(`speed ${speed} instead of ${expected.speed}`);
  return { widthDegraded, speedDegraded, text: parts.length ? parts.join(', ') : null };
}
