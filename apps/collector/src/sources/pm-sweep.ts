import { allAbsent, appendRows, type CounterColumn, type CounterName, type CounterTable } from '@ibwatch/fabric';

/**
 * One PM sweep from the two `ibqueryerrors` outputs: `--counters` (data counters of every
 * port) and error mode with thresholds 0 (error counters and PortXmitWait of the few ports
 * where one is non-zero). `zeroColumns` are the counters error mode checks: a port it does not
 * list had them all at 0, so every data row reads 0 there (explicit zeros, so that the next
 * sweep's increase is a delta against 0 rather than a new baseline). Error-mode values win;
 * ports only error mode printed are added at the end. Port 0 (a switch's management port: no
 * cable, no link errors) is dropped.
 *
 * Pure over the two tables; `data` is consumed (its columns are reused, not copied). The zero
 * columns no error-mode value lands in share one array of zeros (for `hi` and `lo`): at 45k GPUs
 * 8 of the 13 are all 0, 19 MB per sweep that the baseline would hold for a whole interval.
 * Tables are never written after they are built, so sharing is safe.
 */
export function mergePmSweep(
  data: CounterTable,
  errors: CounterTable,
  zeroColumns: readonly CounterName[],
): CounterTable {
  const base = withoutPortZero(data);
  const cols = new Map<CounterName, CounterColumn>(base.columns.map((c) => [c.name, c]));
  const columns = [...base.columns];
  let zeros: Uint32Array | undefined;
  /**
   * The column `name` to write into, added with every row absent, or 0 with `zero` (an absent
   * cell becomes 0 too; a new one shares `zeros` until written).
   */
  const column = (name: CounterName, zero: boolean): CounterColumn => {
    let c = cols.get(name);
    if (!c) {
      if (zero) c = { name, hi: (zeros ??= new Uint32Array(base.rows)), lo: zeros };
      else c = { name, hi: new Uint32Array(base.rows), lo: new Uint32Array(base.rows), absent: allAbsent(base.rows) };
      cols.set(name, c);
      columns.push(c);
    } else if (zero && c.absent) {
      // An absent cell's halves are already 0.
      delete c.absent;
    }
    if (!zero && c.hi === zeros) {
      c.hi = new Uint32Array(base.rows);
      c.lo = new Uint32Array(base.rows);
    }
    return c;
  };
  for (const name of zeroColumns) column(name, true);

  // Rows of one node are consecutive in ibqueryerrors output (one GUID string per run of rows,
  // the parser's): index each node's first row, one look-up per run rather than per row.
  const firstRow = new Map<string, number>();
  for (let r = 0; r < base.rows; r++) {
    const g = base.nodeGuids[r]!;
    if ((r === 0 || base.nodeGuids[r - 1] !== g) && !firstRow.has(g)) firstRow.set(g, r);
  }
  let byKey: Map<string, number> | undefined;
  const rowOf = (g: string, n: number): number => {
    let r = firstRow.get(g);
    if (r === undefined) return -1;
    while (r < base.rows && base.nodeGuids[r] === g) {
      if (base.portNums[r] === n) return r;
      r++;
    }
    // Not consecutive after all: look the port up properly.
    if (!byKey) {
      byKey = new Map();
      for (let i = 0; i < base.rows; i++) byKey.set(`${base.nodeGuids[i]}/${base.portNums[i]}`, i);
    }
    return byKey.get(`${g}/${n}`) ?? -1;
  };
  const extra: number[] = [];
  for (let e = 0; e < errors.rows; e++) {
    const g = errors.nodeGuids[e]!;
    const n = errors.portNums[e]!;
    if (n === 0) continue;
    const r = rowOf(g, n);
    if (r < 0) {
      extra.push(e);
      continue;
    }
    for (const ec of errors.columns) {
      if (ec.absent?.[e] === 1) continue;
      const c = column(ec.name, false);
      c.hi[r] = ec.hi[e]!;
      c.lo[r] = ec.lo[e]!;
      if (c.absent) c.absent[r] = 0;
    }
  }
  return appendRows({ ...base, columns }, errors, extra);
}

function withoutPortZero(t: CounterTable): CounterTable {
  // `--counters` of a real fabric has none: one native search before any copy.
  if (t.portNums.indexOf(0) === -1) return t;
  let n = 0;
  for (let r = 0; r < t.rows; r++) if (t.portNums[r] !== 0) n++;
  const keep = new Uint32Array(n);
  for (let r = 0, i = 0; r < t.rows; r++) if (t.portNums[r] !== 0) keep[i++] = r;
  // Plain loops, not `Uint32Array.from(keep, fn)`: with a map function V8 takes its slow
  // iterator path, which cost ~500 ms of CPU per 10k-GPU sweep (every switch has a port 0
  // in `--counters`, so this copy runs on every sweep) against ~40 ms here.
  const pick = <A extends Uint32Array | Uint16Array | Uint8Array>(a: A, out: A): A => {
    for (let i = 0; i < n; i++) out[i] = a[keep[i]!]!;
    return out;
  };
  const nodeGuids = new Array<string>(n);
  for (let i = 0; i < n; i++) nodeGuids[i] = t.nodeGuids[keep[i]!]!;
  return {
    rows: n,
    nodeGuids,
    portNums: pick(t.portNums, new Uint16Array(n)),
    ...(t.extended ? { extended: pick(t.extended, new Uint8Array(n)) } : {}),
    columns: t.columns.map((c) => ({
      name: c.name,
      hi: pick(c.hi, new Uint32Array(n)),
      lo: pick(c.lo, new Uint32Array(n)),
      ...(c.absent ? { absent: pick(c.absent, new Uint8Array(n)) } : {}),
    })),
  };
}
