import { cellValue, COUNTER_SPECS, SIGNED_64, type CounterTable } from '@ibwatch/fabric';
import type { RouteDeps } from '../routes/deps.ts';
import { createMetricsRepo, type MetricsPort } from '../db/metrics-repo.ts';
import { type Exposition, formatLabels } from './exposition.ts';
import { latestSweep, latestTraffic } from './registry.ts';

/**
 * Per-port raw counters under the names infiniband_exporter users know
 * (`infiniband_switch_port_*` / `infiniband_hca_port_*`, `_total`, data in bytes), so their
 * dashboards and `rate()` habits carry over. Value: the counter as the last sweep read it
 * (64-bit twin when the port has one). Counters, because they only go up until someone clears
 * them, which Prometheus handles as a reset.
 */
const PORT_COUNTERS: [ibName: string, metric: string, scale: number, help: string][] = [
  ['SymbolErrorCounter', 'symbol_error_total', 1, 'Minor link errors detected on one or more physical lanes.'],
  ['LinkErrorRecoveryCounter', 'link_error_recovery_total', 1, 'Successful link error recoveries.'],
  ['LinkDownedCounter', 'link_downed_total', 1, 'Times the link error recovery failed and the link went down.'],
  ['PortRcvErrors', 'receive_errors_total', 1, 'Packets with errors received on the port.'],
  ['PortRcvRemotePhysicalErrors', 'receive_remote_physical_errors_total', 1, 'Packets received marked bad (EBP).'],
  ['PortRcvSwitchRelayErrors', 'receive_switch_relay_errors_total', 1, 'Packets the switch could not relay.'],
  ['PortXmitDiscards', 'transmit_discards_total', 1, 'Outbound packets discarded (port down, congestion).'],
  ['PortXmitConstraintErrors', 'transmit_constraint_errors_total', 1, 'Packets not sent: outbound constraints.'],
  ['PortRcvConstraintErrors', 'receive_constraint_errors_total', 1, 'Packets dropped: inbound constraints.'],
  ['LocalLinkIntegrityErrors', 'local_link_integrity_errors_total', 1, 'Local physical errors over the threshold.'],
  ['ExcessiveBufferOverrunErrors', 'excessive_buffer_overrun_errors_total', 1, 'Consecutive flow-control overruns.'],
  ['VL15Dropped', 'vl15_dropped_total', 1, 'Incoming VL15 (subnet management) packets dropped.'],
  ['PortXmitWait', 'transmit_wait_total', 1, 'Ticks during which the port had data to send but no credits (XmitWait).'],
  ['PortXmitData', 'transmit_data_bytes_total', 4, 'Data octets transmitted (PortXmitData x 4).'],
  ['PortRcvData', 'receive_data_bytes_total', 4, 'Data octets received (PortRcvData x 4).'],
  ['PortXmitPkts', 'transmit_packets_total', 1, 'Packets transmitted.'],
  ['PortRcvPkts', 'receive_packets_total', 1, 'Packets received.'],
];

/**
 * The most ports IBWATCH_METRICS_PORTS=all exports. At 10k GPUs (63k ports, 1.2 million series)
 * a scrape is a 200 MB reply built in ~9.6 s, just inside Prometheus' default 10-s
 * scrape_timeout; the largest subnet (272k ports, ~5 million series, ~900 MB) would not even fit
 * in one JavaScript string, and building it would hold the collector for most of a minute.
 */
export const ALL_PORTS_MAX = 100_000;

/** A scrape this collector refuses to build: the reply says why (HTTP 500, so `up` is 0). */
export class MetricsPortsLimitError extends Error {}

/** The refusal of an all-ports scrape on a fabric of `n` ports. */
export function allPortsLimit(n: number): MetricsPortsLimitError {
  return new MetricsPortsLimitError(
    `IBWATCH_METRICS_PORTS=all: this fabric has ${n.toLocaleString('en-US')} ports, more than the ` +
      `${ALL_PORTS_MAX.toLocaleString('en-US')} this setting exports (about 20 series a port; a scrape would not ` +
      'finish within a scrape_timeout). Use IBWATCH_METRICS_PORTS=problem, and the ibwatch UI or API for ' +
      'every port (docs/metrics.md).',
  );
}

/** The problem ports' keys, then the last sweep's error ports', each once, in that order. */
export function problemKeys(
  problem: { guid: string; port: number }[],
  deltas: { guid: string; port: number }[],
): Map<string, { guid: string; port: number }> {
  const keys = new Map<string, { guid: string; port: number }>();
  for (const k of [...problem, ...deltas]) keys.set(`${k.guid}/${k.port}`, k);
  return keys;
}

/** The ports to export, by the setting: none, the ones with a problem, or all. */
function selectPorts(deps: RouteDeps, deltas: { guid: string; port: number }[]): MetricsPort[] {
  const repo = createMetricsRepo(deps.db);
  if (deps.config.metricsPorts === 'all') {
    const n = repo.allPortCount();
    if (n > ALL_PORTS_MAX) throw allPortsLimit(n);
    return repo.allPorts();
  }
  if (deps.config.metricsPorts === 'off') return [];
  return repo.portsAt([...problemKeys(repo.problemPortKeys(), deltas).values()]);
}

/** Row of each port in a sweep's table, built once per sweep (63k ports: tens of ms per scrape). */
const rowIndexes = new WeakMap<CounterTable, Map<string, number>>();
export function rowIndex(table: CounterTable): Map<string, number> {
  let rows = rowIndexes.get(table);
  if (!rows) {
    rows = new Map();
    for (let r = 0; r < table.rows; r++) rows.set(`${table.nodeGuids[r]}/${table.portNums[r]}`, r);
    rowIndexes.set(table, rows);
  }
  return rows;
}

/** Columns of the table per counter: its 64-bit twins and the classic name. */
function columnsOf(table: CounterTable): Map<string, number[]> {
  const at = new Map(table.columns.map((c, i) => [c.name, i]));
  const out = new Map<string, number[]>();
  for (const [name] of PORT_COUNTERS) {
    const names = [...(COUNTER_SPECS.get(name)?.extNames ?? []), name];
    out.set(
      name,
      names.map((n) => at.get(n)).filter((i): i is number => i !== undefined),
    );
  }
  return out;
}

/** A port's labels (infiniband_exporter's), formatted. */
function portLabels(deps: RouteDeps, p: MetricsPort): string {
  const name = (guid: string, desc: string | null) => deps.names.name(guid, desc ?? undefined);
  return formatLabels({
    guid: p.guid,
    name: name(p.guid, p.description),
    port: p.port,
    remote_guid: p.remoteGuid ?? '',
    remote_name: p.remoteGuid ? name(p.remoteGuid, p.remoteDescription) : '',
    remote_port: p.remotePort ?? '',
  });
}

/**
 * Where the per-port families get their ports and rows: computed afresh by default; port-sources.ts
 * keeps them across sweeps while what they derive from has not moved (the same answers).
 */
export interface PortSources {
  /** The ports to export given the last sweep's error ports, in export order. */
  ports(deltas: { guid: string; port: number }[]): MetricsPort[];
  /** `guid/port` -> row of the table. */
  rows(table: CounterTable): Map<string, number>;
}

/** Per-port families (IBWATCH_METRICS_PORTS=problem|all); nothing when off. */
export function portFamilies(
  e: Exposition,
  deps: RouteDeps,
  src: PortSources = { ports: (d) => selectPorts(deps, d), rows: rowIndex },
): void {
  if (deps.config.metricsPorts === 'off') return;
  const name = (guid: string, desc: string | null) => deps.names.name(guid, desc ?? undefined);
  const deltas = createMetricsRepo(deps.db).lastSweepDeltas();
  e.family(
    'ibwatch_port_error_rate',
    'gauge',
    'Per-second increase of a port error counter over the last PM sweep (ports with a non-zero increase only).',
    deltas.map((r) => [
      { guid: r.guid, port: r.port, node: name(r.guid, r.description), counter: r.counter },
      r.intervalS > 0 ? r.delta / r.intervalS : null,
    ]),
  );
  const sweep = latestSweep(deps.db);
  if (!sweep) return; // No sweep read since the collector started: no raw values to show.
  const ports = src.ports(deltas);
  const { table } = sweep;
  const rows = src.rows(table);
  const cols = columnsOf(table);
  const labelled: { row: number; switch: boolean; labels: string }[] = [];
  for (const p of ports) {
    const row = rows.get(`${p.guid}/${p.port}`);
    if (row === undefined) continue;
    labelled.push({ row, switch: p.type === 'switch', labels: portLabels(deps, p) });
  }
  for (const isSwitch of [true, false]) {
    const mine = labelled.filter((l) => l.switch === isSwitch);
    for (const [ibName, metric, scale, help] of PORT_COUNTERS) {
      const idx = cols.get(ibName)!;
      const metricName = `infiniband_${isSwitch ? 'switch' : 'hca'}_port_${metric}`;
      e.header(metricName, 'counter', `${help} ${ibName}, as the last PM sweep read it.`);
      for (const l of mine) e.sample(metricName, l.labels, valueOf(table, idx, l.row, scale));
    }
  }
  // The rates ibwatch computed from the same sweep and its predecessor (docs/traffic.md): a port
  // without a rate (first sweep, saturated counter) has no sample.
  const t = latestTraffic(deps.db);
  if (t?.table !== table) return;
  for (const [metric, values, help] of [
    ['ibwatch_port_transmit_bytes_per_second', t.txBps, 'Data bytes/s sent over the last PM sweep interval.'],
    ['ibwatch_port_receive_bytes_per_second', t.rxBps, 'Data bytes/s received over the last PM sweep interval.'],
    ['ibwatch_port_transmit_wait_ticks_per_second', t.waitTps, 'PortXmitWait ticks/s over the last PM sweep interval.'],
  ] as const) {
    e.header(metric, 'gauge', help);
    for (const l of labelled) e.sample(metric, l.labels, values[l.row]!);
  }
}

/**
 * A counter's value: the larger of its 64-bit twin and its classic column, as the delta code
 * reads it. A twin can be left unmaintained (a real NDR run: `SymbolErrorCounter=44375`,
 * `SymbolErrorCounterExt=0` on every erring CX-7 port), and one at 2^63 or more is no count
 * (`PortRcvErrorsExt=18446744073709551576` in the same run).
 */
function valueOf(table: CounterTable, idx: number[], row: number, scale: number): number | null {
  let best: bigint | undefined;
  for (const i of idx) {
    const v = cellValue(table.columns[i]!, row);
    if (v !== undefined && v < SIGNED_64 && (best === undefined || v > best)) best = v;
  }
  return best === undefined ? null : Number(best) * scale;
}
