/**
 * NCCL_DEBUG=INFO lines mixed into nccl-tests output: NCCL version, the IB devices NCCL uses,
 * GPUDirect RDMA lines, channel/transport lines, WARN lines. Fed one line at a time to a
 * {@link DebugCollector}; {@link DebugCollector.finish} draws the GDR verdict.
 */
import { MAX_EVIDENCE, type NcclEvidence, type NcclGdr, type NcclIbDevice, type NcclTransports } from './types.ts';

/**
 * Prefix `<host>:<pid>:<tid> [<cudaDev>] NCCL INFO <msg>`; WARN lines put `<file>:<line>` before
 * `NCCL WARN` (`v100-gpu-1:14926:14926 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]`)
 * and NCCL >= 2.26 may prepend `[YYYY-MM-DD HH:MM:SS] `.
 */
const PREFIX_RE = new RegExp(
  /^(?:\[[^\]]*\]\s+)?([^\s:]+):(\d+):(\d+)\s+\[(\d+)\]\s+(?:\S+:\d+\s+)?/.source +
    /NCCL\s+(INFO|WARN|TRACE|ABORT|VERSION)\s?(.*)$/.source,
);

/** A decoded NCCL log line. */
export interface NcclLogLine {
  host?: string;
  level: string;
  message: string;
}

/** Decode a NCCL log line; the old prefix-less `NCCL version 2.16.5+cuda11.8` counts as INFO. */
export function parseNcclLogLine(line: string): NcclLogLine | undefined {
  const m = PREFIX_RE.exec(line);
  if (m) return { host: m[1], level: m[5], message: m[6] };
  if (/^NCCL version\s/.test(line)) return { level: 'INFO', message: line.trim() };
  return undefined;
}

const VERSION_RE = /^NCCL version (\d+\.\d+\.\d+)(?:\+cuda(\d+(?:\.\d+)*))?/;
// `NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_2:1/IB [RO]; OOB ibp209s0f0:10.128.3.13<0>`
const IB_USING_RE = /^NET\/IB\s*:\s*Using\s+(.*)$/;
const IB_DEV_RE = /\[(\d+)\]([\w.-]+):(\d+)(?::\d+)*\/(\w+)/g;
// NCCL >= 2.2x, one per HCA before the `Using` line (speed in Mb/s):
// `NET/IB: [2] mlx5_2:uverbs2:1/RoCE provider=Mlx5 speed=400000 context=0x5563d0080110 pciPath=... ar=0`
const IB_SPEED_RE = /^NET\/IB\s*:\s*\[\d+\]\s+([\w.-]+):uverbs\d+:\d+\/\w+\b.*\bspeed=(\d+)/;
// `NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'`
const HCA_GDR_RE = /^NET\/IB\s*:\s*GPU Direct RDMA (Enabled|Disabled) for HCA (\d+)/;
// `GPU Direct RDMA Enabled for GPU 81000 / HCA 1 (distance 6 <= 7), read 0`
const PATH_GDR_RE = /^GPU Direct RDMA (Enabled|Disabled) for GPU \S+ \/ HCA \d+/;
// `Channel 00/0 : 1[81000] -> 0[81000] [receive] via NET/IB/1/GDRDMA`,
// `Channel 00 : 0[0] -> 1[1] via SHM/direct/direct`
const CHANNEL_RE = /^Channel \d+(?:\/\d+)? : \d+\[\w+\] -> \d+\[\w+\](?: \[(?:send|receive)\])? via (\S+)/;
// `comm 0x72a6b00 rank 0 nranks 2 cudaDev 0 busId 81000 commId 0x... - Init COMPLETE`
const NRANKS_RE = /\brank \d+ n[Rr]anks (\d+)\b/;

/** Transport kind of a channel's `via` part: `NET/IB/1/GDRDMA` → `NET/IB`, `P2P/IPC/read` → `P2P/IPC`. */
export function transportKind(via: string): string {
  const parts = via.split('/');
  if (parts[0] === 'COLLNET') return 'COLLNET';
  return parts.length > 1 ? `${parts[0]}/${parts[1].replace(/\(.*$/, '')}` : parts[0];
}

/** Accumulates what the NCCL lines say; feed every line, then call {@link finish}. */
export class DebugCollector {
  ncclVersion?: string;
  cudaVersion?: string;
  network?: string;
  nRanks?: number;
  readonly ibDevices: NcclIbDevice[] = [];
  readonly warnings: NcclEvidence[] = [];
  private readonly seenIb = new Set<string>();
  /** `host/device` → speed in Mb/s from the per-HCA lines, given to the devices of the `Using` line. */
  private readonly ibSpeeds = new Map<string, number>();
  private readonly kinds: Record<string, number> = {};
  private readonly ev = {
    gdrChannels: [] as NcclEvidence[],
    plainChannels: [] as NcclEvidence[],
    pathOn: [] as NcclEvidence[],
    pathOff: [] as NcclEvidence[],
    hcaOn: [] as NcclEvidence[],
    hcaOff: [] as NcclEvidence[],
    socket: [] as NcclEvidence[],
  };
  private readonly counts = {
    netChannelsGdr: 0,
    netChannelsNoGdr: 0,
    gpuPathsEnabled: 0,
    gpuPathsDisabled: 0,
    hcaEnabled: 0,
    hcaDisabled: 0,
  };

  /** Consume one input line; returns true when it was a NCCL log line. */
  feed(line: string, lineNo: number): boolean {
    const parsed = parseNcclLogLine(line);
    if (!parsed) return false;
    const { message } = parsed;
    const evidence = (): NcclEvidence => ({ line: lineNo, text: line.trim() });
    const keep = (list: NcclEvidence[]): void => {
      if (list.length < MAX_EVIDENCE) list.push(evidence());
    };
    if (parsed.level === 'WARN') {
      if (this.warnings.length < 50) this.warnings.push(evidence());
      return true;
    }
    let m: RegExpExecArray | null;
    if ((m = VERSION_RE.exec(message))) {
      this.ncclVersion ??= m[1];
      if (m[2] !== undefined) this.cudaVersion ??= m[2];
    } else if ((m = IB_USING_RE.exec(message))) {
      for (const d of m[1].matchAll(IB_DEV_RE)) {
        const key = `${parsed.host ?? ''}/${d[1]}`;
        if (this.seenIb.has(key)) continue;
        this.seenIb.add(key);
        const dev: NcclIbDevice = { index: Number(d[1]), device: d[2], port: Number(d[3]), linkLayer: d[4] };
        if (parsed.host !== undefined) dev.host = parsed.host;
        const speed = this.ibSpeeds.get(`${parsed.host ?? ''}/${d[2]}`);
        if (speed !== undefined) dev.speedMbps = speed;
        this.ibDevices.push(dev);
      }
    } else if ((m = IB_SPEED_RE.exec(message))) {
      this.ibSpeeds.set(`${parsed.host ?? ''}/${m[1]}`, Number(m[2]));
    } else if (/^NET\/Socket\s*:\s*Using\s/.test(message)) {
      keep(this.ev.socket);
    } else if ((m = /^Using network (\S+)/.exec(message))) {
      this.network = m[1];
      if (m[1] === 'Socket') keep(this.ev.socket);
    } else if ((m = HCA_GDR_RE.exec(message))) {
      if (m[1] === 'Enabled') {
        this.counts.hcaEnabled++;
        keep(this.ev.hcaOn);
      } else {
        this.counts.hcaDisabled++;
        keep(this.ev.hcaOff);
      }
    } else if ((m = PATH_GDR_RE.exec(message))) {
      if (m[1] === 'Enabled') {
        this.counts.gpuPathsEnabled++;
        keep(this.ev.pathOn);
      } else {
        this.counts.gpuPathsDisabled++;
        keep(this.ev.pathOff);
      }
    } else if ((m = CHANNEL_RE.exec(message))) {
      const via = m[1];
      const kind = transportKind(via);
      this.kinds[kind] = (this.kinds[kind] ?? 0) + 1;
      if (via.startsWith('NET/')) {
        // `via NET/IB/0/GDRDMA` = GPU memory registered with the HCA; `via NET/IB/0` = staged through host memory.
        if (via.split('/').includes('GDRDMA')) {
          this.counts.netChannelsGdr++;
          keep(this.ev.gdrChannels);
        } else {
          this.counts.netChannelsNoGdr++;
          keep(this.ev.plainChannels);
        }
      }
    } else if ((m = NRANKS_RE.exec(message))) {
      this.nRanks = Math.max(this.nRanks ?? 0, Number(m[1]));
    }
    return true;
  }

  /** Channel counts by transport. */
  transports(): NcclTransports {
    const sum = (pred: (k: string) => boolean): number =>
      Object.entries(this.kinds).reduce((n, [k, v]) => (pred(k) ? n + v : n), 0);
    return {
      kinds: { ...this.kinds },
      net: sum((k) => k.startsWith('NET/')),
      p2p: sum((k) => k.startsWith('P2P/')),
      shm: sum((k) => k.startsWith('SHM')),
      collnet: sum((k) => k === 'COLLNET'),
    };
  }

  /**
   * The GDR verdict. Rules, strongest first:
   * 1. inter-node channel lines: all `.../GDRDMA` → enabled, none → disabled, both → mixed;
   * 2. per GPU/HCA path lines (`GPU Direct RDMA Enabled for GPU 81000 / HCA 1 (...)`), same rule;
   * 3. per HCA capability lines (`NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'`), same rule;
   * 4. `Using network Socket` / `NET/Socket : Using` with no IB at all → disabled (no RDMA);
   * otherwise unknown (e.g. a single-node run with only P2P/SHM channels, or no NCCL_DEBUG).
   */
  gdr(): NcclGdr {
    const counts = { ...this.counts };
    const decide = (nOn: number, nOff: number): NcclGdr['status'] =>
      nOn > 0 && nOff > 0 ? 'mixed' : nOn > 0 ? 'enabled' : 'disabled';
    const pick = (on: NcclEvidence[], off: NcclEvidence[]): NcclEvidence[] =>
      [...off, ...on].sort((a, b) => a.line - b.line).slice(0, MAX_EVIDENCE);
    const { ev } = this;
    // Strongest evidence first: inter-node channel lines, then per-GPU paths, then per-HCA lines.
    const rules: [NcclGdr['basis'], NcclEvidence[], NcclEvidence[], number, number][] = [
      ['channels', ev.gdrChannels, ev.plainChannels, counts.netChannelsGdr, counts.netChannelsNoGdr],
      ['gpu-paths', ev.pathOn, ev.pathOff, counts.gpuPathsEnabled, counts.gpuPathsDisabled],
      ['hca', ev.hcaOn, ev.hcaOff, counts.hcaEnabled, counts.hcaDisabled],
    ];
    for (const [basis, on, off, nOn, nOff] of rules) {
      if (nOn + nOff > 0) return { status: decide(nOn, nOff), basis, evidence: pick(on, off), counts };
    }
    const socketOnly = (this.network === 'Socket' || ev.socket.length > 0) && this.ibDevices.length === 0;
    if (socketOnly) return { status: 'disabled', basis: 'network', evidence: ev.socket.slice(), counts };
    return { status: 'unknown', basis: 'none', evidence: [], counts };
  }
}
