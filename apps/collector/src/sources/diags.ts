import { rmSync, statSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { limitText } from '@ibwatch/fabric';
import type { CounterTable, FabricLink, FabricNode, FabricPort, Guid, SmObservation } from '@ibwatch/fabric';
import {
  IBQE_ERROR_MODE_COUNTERS,
  parseIbnetdiscover,
  parseIblinkinfo,
  GuidTable,
  ibqueryerrorsTable,
  IbqueryerrorsTableStream,
  parseSaquerySmir,
  parseSminfo,
  ParseError,
} from '@ibwatch/parsers';
import { ScanError, type Collected, type RawOutput } from './types.ts';
import { mergePmSweep } from './pm-sweep.ts';
import { TopologyPorts } from './topology-ports.ts';
import { describeFailure, type RunOptions, type ToolRun, type ToolRunner } from './tool-runner.ts';
import type { ToolEnv } from './types.ts';

export interface TopologyData {
  nodes: FabricNode[];
  ports: FabricPort[];
  links: FabricLink[];
}

/** GUIDs a subnet's sweeps name: ~100k at 45k GPUs (node and port GUIDs); 1M is never a real fabric. */
const MAX_KEPT_GUIDS = 1 << 20;

/** stdout as the runner kept it: bytes when asked for (and the runner is the real one), else text. */
const outputOf = (r: ToolRun): string | Uint8Array => r.stdoutBytes ?? r.stdout;

/** The bytes of a run kept as bytes, without joining its chunks (undefined for text). */
const bytesSize = (r: ToolRun): number | undefined => r.stdoutSize ?? r.stdoutBytes?.length;

/**
 * A raw output read only when it is stored (once an hour for a clean PM sweep): the runner joins
 * a run's chunks into one buffer only then.
 */
const lazyRaw = (name: string, r: ToolRun): RawOutput => ({
  name,
  get text() {
    return outputOf(r);
  },
});

function isBlankOutput(r: ToolRun): boolean {
  if (!r.stdoutBytes) return r.stdout.trim() === '';
  for (const b of r.stdoutBytes) if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return false;
  return true;
}

export interface DiagsOptions {
  /**
   * Where a PM sweep keeps its fabric snapshot (`ibnetdiscover --cache`), the process ID and the
   * source's number added (a source sweeps one at a time); the file is removed when the sweep
   * ends. Without it each ibqueryerrors run discovers the fabric itself.
   */
  fabricCache?: string;
  /**
   * The discovering runs' smpWindow of SMPs in flight (`-o`, `--outstanding_smps`); the tools'
   * own default is 2. Discovery is round trips, not work: at 4k GPUs under ibsim
   * `ibnetdiscover` takes 1.9 s with 2 in flight and 0.7 s with 8, and finds the same fabric.
   * Unset: the tools' default.
   */
  outstandingSmps?: number;
}

/** What ibqueryerrors says when it cannot use `--load-cache` (see `sweepRun`). */
const NO_SNAPSHOT = /loading cached fabric failed|unrecognized option|usage:/i;

/** Numbers the sources of one process: two contexts (two fabrics) never share a snapshot file. */
let sources = 0;

const sizeOf = (file: string): number => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

/** infiniband-diags as a fabric source: topology, all-port PM counters, every SM's state. */
export function createDiagsSource(runner: ToolRunner, envOf: () => Promise<ToolEnv>, opts: DiagsOptions = {}) {
  const snapshotFile = opts.fabricCache && `${opts.fabricCache}-${process.pid}-${++sources}`;
  /** `-o N` for a run that discovers the fabric (never for one that loads the snapshot). */
  const smpWindow = opts.outstandingSmps ? ['-o', String(opts.outstandingSmps)] : [];
  const versions: Record<string, string> = {};
  // The fabric's GUIDs, read into the same strings sweep after sweep (see ibqueryerrorsTable).
  // Started afresh if it ever holds far more GUIDs than a fabric has (junk in some output).
  let pmGuids = new GuidTable();

  /**
   * Runs one tool. A tool that died of a signal it was not sent by us (not our timeout, not
   * the output cap) is run once more: a crashed client says nothing about the fabric (under
   * ibsim, ibqueryerrors dies of SIGSEGV in ~3% of runs). The retry is noted on the scan.
   */
  async function run(tool: string, args: string[], notes?: string[], opts: Partial<RunOptions> = {}): Promise<ToolRun> {
    const te = await envOf();
    let r = await runner.run(tool, args, { env: te.env, cwd: te.cwd, ...opts });
    if (te.afterFailure && describeFailure(r)) await te.afterFailure(r);
    if (r.signal && !r.timedOut && !r.truncated) {
      notes?.push(`${tool} ${args.join(' ')} died of ${r.signal}; ran it again`);
      r = await runner.run(tool, args, { env: te.env, cwd: te.cwd, ...opts });
      if (te.afterFailure && describeFailure(r)) await te.afterFailure(r);
    }
    if (!versions[tool] && r.exitCode !== null && !r.spawnError) {
      const v = await runner.run(tool, ['-V'], { env: te.env, cwd: te.cwd, timeoutMs: 5000 });
      // "ibqueryerrors BUILD VERSION: 44.0 Build date: ..." (printed on stderr by diags 44)
      const m = /BUILD VERSION:\s*(\S+)/.exec(v.stdout + v.stderr);
      versions[tool] = m ? m[1]! : 'unknown';
    }
    return r;
  }

  /** Output size and table rows of the last sweep per file, to size the next sweep's table at once. */
  const lastBytes = new Map<string, number>();
  const lastRows = new Map<string, number>();

  function streamFor(file: string, portToNode: ReadonlyMap<Guid, Guid>): IbqueryerrorsTableStream {
    if (pmGuids.count > MAX_KEPT_GUIDS) pmGuids = new GuidTable();
    return new IbqueryerrorsTableStream(
      { file, portToNode, guids: pmGuids },
      lastBytes.get(file) ?? 0,
      lastRows.get(file) ?? 0,
    );
  }

  /**
   * The streamed parse when it saw exactly the run's stdout, else a parse of the whole output:
   * a crashed first run that printed something was fed to the stream too (the retry's output is
   * what counts), a runner that does not stream fed nothing, and a parse that failed midway is
   * done again to throw its error in the usual order.
   */
  function tableOf(s: IbqueryerrorsTableStream, r: ToolRun, portToNode: ReadonlyMap<Guid, Guid>) {
    const file = s.file ?? 'ibqueryerrors';
    const size = bytesSize(r);
    lastBytes.set(file, size ?? r.stdout.length);
    const t =
      size !== undefined && s.ok && s.bytes === size
        ? s.end()
        : ibqueryerrorsTable(outputOf(r), { file, portToNode, guids: pmGuids });
    lastRows.set(file, t.value.table.rows);
    return t;
  }

  /** Fails the scan with the tool's own words unless it exited 0. */
  function mustSucceed(r: ToolRun, raw: RawOutput[]): void {
    const why = describeFailure(r);
    if (why) throw new ScanError(why, raw);
  }

  /** Parse errors become scan errors that name the tool output (file) and line. */
  function parse<T>(name: string, raw: RawOutput[], fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (err instanceof ParseError) throw new ScanError(err.message, raw);
      throw err;
    }
  }

  /**
   * `ibnetdiscover --cache` into this source's own file (a CLI sweep may run beside the server's),
   * its topology printed to /dev/null. Undefined when there is no snapshot to load: the note
   * says why, and each ibqueryerrors run then discovers the fabric itself, as it would by hand.
   */
  async function discoverOnce(notes: string[]): Promise<string | undefined> {
    const file = snapshotFile;
    if (!file) return undefined;
    const r = await run('ibnetdiscover', ['--cache', file, ...smpWindow, '/dev/null'], notes);
    const why = describeFailure(r) ?? (sizeOf(file) > 0 ? null : 'ibnetdiscover wrote no fabric snapshot');
    if (!why) return file;
    rmSync(file, { force: true });
    notes.push(`fabric snapshot for the PM sweep failed (${why}); each ibqueryerrors discovered the fabric itself`);
    return undefined;
  }

  /**
   * One ibqueryerrors run of a sweep, streamed into its table. A run that could not load the
   * snapshot (stderr "loading cached fabric failed", exit 255, nothing on stdout; an old one
   * without the option prints its usage) runs again with its own discovery.
   */
  async function sweepRun(
    file: string,
    args: string[],
    cache: string | undefined,
    portToNode: ReadonlyMap<Guid, Guid>,
    notes: string[],
  ): Promise<[ToolRun, IbqueryerrorsTableStream]> {
    const go = async (a: string[]): Promise<[ToolRun, IbqueryerrorsTableStream]> => {
      const stream = streamFor(file, portToNode);
      const r = await run('ibqueryerrors', a, notes, { bytes: true, onStdout: (c) => stream.push(c) });
      return [r, stream];
    };
    if (!cache) return go([...args, ...smpWindow]);
    const first = await go([...args, '--load-cache', cache]);
    const r = first[0];
    if (r.exitCode === 0 || !NO_SNAPSHOT.test(r.stderr) || !isBlankOutput(r)) return first;
    notes.push(`${describeFailure(r)}; ran it again without the fabric snapshot`);
    return go([...args, ...smpWindow]);
  }

  /** Both runs' tables merged into the sweep (or the scan failed, naming the file and line). */
  async function pmOf(
    errs: ToolRun,
    errStream: IbqueryerrorsTableStream,
    data: ToolRun,
    dataStream: IbqueryerrorsTableStream,
    portToNode: ReadonlyMap<Guid, Guid>,
    notes: string[],
  ): Promise<Collected<CounterTable>> {
    const raw = [lazyRaw('ibqueryerrors-errors.txt', errs), lazyRaw('ibqueryerrors-counters.txt', data)];
    // ibqueryerrors exits non-zero when it found errors or PMA failures; the output is still whole.
    for (const r of [errs, data])
      if (r.spawnError || r.timedOut || r.truncated || (r.exitCode !== 0 && isBlankOutput(r))) mustSucceed(r, raw);
    // Straight into counter tables: a 10k-GPU `--counters` output is ~25 MB and 69k ports, at 45k ~100 MB and 293k.
    const e = parse('ibqueryerrors', raw, () => tableOf(errStream, errs, portToNode));
    // A parse left to do holds the event loop: serve waiting API requests between the two.
    await nextTurn();
    const d = parse('ibqueryerrors', raw, () => tableOf(dataStream, data, portToNode));
    const warnings = [...e.warnings, ...d.warnings].map(
      (w) => `${w.file ?? 'ibqueryerrors'}:${w.line ?? '?'}: ${w.message}`,
    );
    if (e.value.unresolved)
      warnings.push(`${e.value.unresolved} port GUIDs not in the topology yet (run a topology scan)`);
    // And between the second parse and the merge: each is a block of its own at 45k GPUs.
    await nextTurn();
    const sweep = mergePmSweep(d.value.table, e.value.table, IBQE_ERROR_MODE_COUNTERS);
    const failures = (e.value.summary?.pmaQueryFailures ?? 0) + (d.value.summary?.pmaQueryFailures ?? 0);
    if (failures > 0) warnings.push(`${failures} PMA query failures: those ports' counters were not read this sweep`);
    return { data: sweep, raw, toolVersions: { ...versions }, warnings, notes };
  }

  return {
    versions,

    async collectTopology(): Promise<Collected<TopologyData>> {
      const notes: string[] = [];
      const [disc, linkinfo] = await Promise.all([
        run('ibnetdiscover', smpWindow, notes),
        run('iblinkinfo', smpWindow, notes),
      ]);
      const raw = [
        { name: 'ibnetdiscover.txt', text: disc.stdout },
        { name: 'iblinkinfo.txt', text: linkinfo.stdout },
      ];
      mustSucceed(disc, raw);
      const topo = parse('ibnetdiscover', raw, () => parseIbnetdiscover(disc.stdout, { file: 'ibnetdiscover' }));
      const warnings = topo.warnings.map((w) => `ibnetdiscover:${w.line ?? '?'}: ${w.message}`);
      let partial = false;
      const ports = new TopologyPorts(topo.value.ports);
      if (describeFailure(linkinfo)) {
        partial = true;
        warnings.push(`port states unknown: ${describeFailure(linkinfo)}`);
      } else {
        const li = parse('iblinkinfo', raw, () =>
          parseIblinkinfo(linkinfo.stdout, { file: 'iblinkinfo', onPort: (lp) => ports.fold(lp) }),
        );
        warnings.push(...li.warnings.map((w) => `iblinkinfo:${w.line ?? '?'}: ${w.message}`));
      }
      const data = { nodes: topo.value.nodes, ports: ports.finish(), links: topo.value.links };
      warnings.push(...limitText(data).map((w) => `ibnetdiscover: ${w}`));
      return {
        data,
        raw,
        toolVersions: { ...versions },
        warnings,
        notes,
        partial,
      };
    },

    /**
     * All-port PM counters in two single-process sweeps (never one perfquery per port):
     * `ibqueryerrors --data --threshold-file /dev/null` lists every port with any error counter
     * above zero (thresholds all 0, nothing suppressed), `--counters` lists data/packet counters
     * of every port. A port in the second list but not the first has all error counters at 0.
     *
     * Each ibqueryerrors run discovers the whole fabric before it reads a counter: at 4k GPUs
     * under ibsim that is ~1.7 s of its ~2.5 s, and on real switches it is the SMP load. So the
     * sweep discovers once (`ibnetdiscover --cache`) and both runs load that snapshot
     * (`--load-cache`): fewer SMPs, and both lists describe the same fabric. The snapshot is
     * taken at the start of every sweep, never reused: a cached LID that moved would read
     * another port's counters. Without it (see `discoverOnce`) each run discovers for itself.
     */
    async collectPm(portToNode: ReadonlyMap<Guid, Guid>): Promise<Collected<CounterTable>> {
      const notes: string[] = [];
      const cache = await discoverOnce(notes);
      try {
        // Parsed while the tools still write (a 4k-GPU `--counters` run streams ~10 MB over
        // seconds): when the second tool exits, little of the parse is left. As bytes: parsed
        // without decoding, and kept (gzipped) as they came.
        const [[errs, errStream], [data, dataStream]] = await Promise.all([
          sweepRun('ibqueryerrors-errors', ['--data', '--threshold-file', '/dev/null'], cache, portToNode, notes),
          sweepRun('ibqueryerrors-counters', ['--counters'], cache, portToNode, notes),
        ]);
        return await pmOf(errs, errStream, data, dataStream, portToNode, notes);
      } finally {
        if (cache) rmSync(cache, { force: true });
      }
    },

    /** Every SM: `saquery SMIR` lists master and standbys; without an SA, `sminfo` per known LID. */
    async collectSm(knownLids: number[]): Promise<Collected<SmObservation[]>> {
      const sa = await run('saquery', ['SMIR']);
      const raw = [{ name: 'saquery-smir.txt', text: sa.stdout + (sa.stderr ? `\n# stderr:\n${sa.stderr}` : '') }];
      if (!describeFailure(sa)) {
        const r = parse('saquery', raw, () => parseSaquerySmir(sa.stdout, { file: 'saquery-smir' }));
        const warnings = r.warnings.map((w) => `saquery:${w.line ?? '?'}: ${w.message}`);
        // The SA's SMInfo records lag behind the SMs themselves: right after a (re)start the
        // standby is missing or still "SMState 1" (DISCOVERING) in `saquery SMIR`, while
        // `sminfo <lid>` asked of that SM answers "state 2 SMINFO_STANDBY". Every SM the SA
        // lists or that was seen before is asked directly; its own answer wins.
        const byGuid = new Map(r.value.map((s) => [s.guid, s]));
        const lids = new Set([...r.value.map((s) => s.lid).filter((l): l is number => l !== undefined), ...knownLids]);
        for (const lid of lids) {
          const q = await run('sminfo', [String(lid)]);
          raw.push({ name: `sminfo-${lid}.txt`, text: q.stdout + q.stderr });
          if (describeFailure(q)) continue;
          try {
            for (const s of parseSminfo(q.stdout, { file: `sminfo-${lid}` }).value)
              byGuid.set(s.guid, { ...byGuid.get(s.guid), ...s });
          } catch {
            /* no answer from that LID: the SA's record (if any) stands */
          }
        }
        const sms = [...byGuid.values()];
        warnings.push(...limitText({ sms }).map((w) => `saquery: ${w}`));
        return { data: sms, raw, toolVersions: { ...versions }, warnings };
      }
      // A tool that cannot start says nothing about the SMs: recording "none answered" would
      // raise a false no-master alarm, so the scan fails with the tool's problem instead.
      if (sa.spawnError) throw new ScanError(describeFailure(sa)!, raw);
      // No SA answer: there may be no master at all. Ask each SM we have seen directly, and the
      // master our port knows of (`sminfo` without a LID asks PortInfo's MasterSMLID): a master
      // never seen before — a rogue SM whose sweep has not finished — answers only that way.
      const warnings = [`saquery SMIR failed (${describeFailure(sa)}); asked each known SM with sminfo`];
      const byGuid = new Map<string, SmObservation>();
      for (const lid of [undefined, ...knownLids]) {
        const name = `sminfo-${lid ?? 'master'}`;
        const r = await run('sminfo', lid === undefined ? [] : [String(lid)]);
        raw.push({ name: `${name}.txt`, text: r.stdout + r.stderr });
        if (describeFailure(r)) continue;
        try {
          for (const s of parseSminfo(r.stdout, { file: name }).value) byGuid.set(s.guid, s);
        } catch {
          /* an SM that does not answer is simply not seen */
        }
      }
      return { data: [...byGuid.values()], raw, toolVersions: { ...versions }, warnings, partial: true };
    },
  };
}
export type DiagsSource = ReturnType<typeof createDiagsSource>;
