/** Ports and their counter history. Part of the HTTP API contract (see ../api.ts). */
import type { LinkSpeed, LinkWidth, PhysState, PortState } from '../types.ts';
import type { ExpectedRate, LinkHealth } from './common.ts';
import type { FindingRow } from './findings.ts';
import type { LinkEnd } from './topology.ts';

export interface PortRow {
  guid: string;
  port: number;
  name: string;
  lid: number | null;
  state: PortState | null;
  physState: PhysState | null;
  widthActive: LinkWidth | null;
  speedActive: LinkSpeed | null;
  remote: LinkEnd | null;
  openFindings: number;
  /** When a topology scan last saw this port: its state and rate are as of then. */
  lastSeen: number;
  /**
   * The latest topology scan did not see the port (its node became unreachable, e.g. the HCA of
   * a cable that went dark): state, rate and remote end are the last known ones, as of `lastSeen`.
   */
  stale: boolean;
  /** Never part of a link: an uncabled port (Down/Polling since it was first seen), not a link that went down. */
  unused: boolean;
  /** Where a port that lost its link was last connected (`remote` is then null), and when it was last seen so. */
  lastRemote: (LinkEnd & { lastSeen: number }) | null;
}

export interface PortsReply {
  total: number;
  items: PortRow[];
}

export interface CounterPoint {
  at: number;
  counter: string;
  delta: number;
  /** Per second over the interval that ended at `at`. */
  rate: number;
}

export interface StateChange {
  at: number;
  state: PortState | null;
  physState: PhysState | null;
  widthActive: LinkWidth | null;
  speedActive: LinkSpeed | null;
}

export interface PortDetailReply {
  port: PortRow & {
    widthEnabled: LinkWidth[];
    widthSupported: LinkWidth[];
    speedEnabled: LinkSpeed[];
    speedSupported: LinkSpeed[];
    rack: string | null;
  };
  expected: ExpectedRate;
  cable: { vendor?: string; partNumber?: string; serialNumber?: string; lengthM?: number } | null;
  findings: FindingRow[];
  /** Health of the port's link (or of the port alone) as the latest scans observed it. */
  health: LinkHealth;
  /** The worst current finding's short reason when health is not ok. */
  healthReason: string | null;
}

export interface CounterHistoryReply {
  range: '1h' | '24h' | '7d' | '30d';
  resolution: 'sweep' | 'hour';
  /**
   * Start of what the points can cover: the later of the range's start and the port's first
   * observation. Before it there is no data (not zero errors); charts start here.
   */
  observedFrom: number;
  points: CounterPoint[];
  /** Per-counter thresholds as rates per second, drawn on the charts. */
  thresholds: Record<string, number>;
  stateChanges: StateChange[];
}
