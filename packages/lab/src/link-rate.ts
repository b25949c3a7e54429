/**
 * Link width/speed faults: `ibportstate <lid> <port> width|espeed <mask>` on both ends of a cable,
 * then verified with `smpquery portinfo` on both ends after OpenSM's trap-forced sweep, and
 * re-applied where OpenSM wrote an end back.
 *
 * Why the verification: every ibportstate Set makes ibsim send trap 144 (`log_trap_info: Received
 * Generic Notice type:4 num:144 (... Link [Width|Speed] Enabled ...)` in the SM log) and OpenSM
 * runs a heavy sweep, which reads every PortInfo and then writes PortInfo Sets from that copy.
 * When our Set of the second end lands between that read and that write, the old enabled mask is
 * written back and ibsim re-derives the active width from it. Measured right after degrading
 * `dgx-0003 mlx5_2` <-> `leaf-r2-01`[3] to 2X: HCA end `LinkWidthEnabled: 1X or 2X`, switch end
 * `1X or 4X`, `LinkWidthActive: 4X` on both; two other HCA links and the leaf-spine links held.
 * It shows up on HCA links, probably because those are the ports OpenSM rewrites on every heavy
 * sweep (ibsim reports `MkeyLeasePeriod: 4089` on every CA port, opensm.conf has
 * `m_key_lease_period 0`); the exact MAD was not traced. Setting the switch end alone does not
 * work either: the CA end keeps 1X|4X and the next Set re-derives 4X (docs/lab.md).
 */
import type { LinkSpeed, LinkWidth } from '@ibwatch/fabric';
import { existsSync, readFileSync } from 'node:fs';
import type { PortAddr } from './console.ts';
import { clearFaults, linkWhere, noteFault } from './fault-log.ts';
import type { Lab } from './lab.ts';
import { isAlive, sleep } from './proc.ts';
import { fileSize } from './sm.ts';
import { portTable } from './topology.ts';

/** PortInfo LinkWidthEnabled bits (IBTA): 1X=1, 4X=2, 8X=4, 12X=8, 2X=16. */
const WIDTH_BIT: Record<LinkWidth, number> = { '1X': 1, '4X': 2, '8X': 4, '12X': 8, '2X': 16 };
/** LinkSpeedExtEnabled bits: FDR=1, EDR=2, HDR=4 (ibsim 0.10 knows nothing faster). */
const EXT_SPEED_BIT: Partial<Record<LinkSpeed, number>> = { FDR: 1, EDR: 2, HDR: 4 };
/** How smpquery prints the extended lane speeds. */
const EXT_SPEED_TEXT: Partial<Record<LinkSpeed, string>> = {
  FDR: '14.0625 Gbps',
  EDR: '25.78125 Gbps',
  HDR: '53.125 Gbps',
};

export interface LinkRate {
  width?: LinkWidth;
  speed?: LinkSpeed;
}

/** The far end of a cabled port, from the generated topology. */
export function peerOf(lab: Lab, p: PortAddr): PortAddr {
  const row = portTable(lab.topology()).get(p.node);
  if (!row) throw new Error(`unknown node "${p.node}"`);
  const peer = row[p.port];
  if (!peer) throw new Error(`"${p.node}"[${p.port}] is not cabled`);
  return peer;
}

/** The rate fields of `smpquery portinfo` (`LinkWidthActive:.................2X`). */
export interface PortRate {
  widthEnabled: string;
  widthActive: string;
  speedExtEnabled: string;
  speedExtActive: string;
}

export function parsePortRate(text: string): PortRate {
  const field = (name: string): string => new RegExp(`^${name}:\\.*(.*)$`, 'm').exec(text)?.[1]?.trim() ?? '';
  return {
    widthEnabled: field('LinkWidthEnabled'),
    widthActive: field('LinkWidthActive'),
    speedExtEnabled: field('LinkSpeedExtEnabled'),
    speedExtActive: field('LinkSpeedExtActive'),
  };
}

/** What `rate` must look like on one end once it holds, or why it does not. */
export function rateMismatch(r: PortRate, rate: LinkRate): string | undefined {
  const enabledWidths = new Set(r.widthEnabled.split(/\s+or\s+/));
  if (rate.width) {
    const want = new Set(['1X', rate.width]);
    if (
      r.widthActive !== rate.width ||
      enabledWidths.size !== want.size ||
      [...want].some((w) => !enabledWidths.has(w))
    ) {
      return `width active ${r.widthActive || '?'} enabled "${r.widthEnabled}", want ${rate.width}`;
    }
  }
  if (rate.speed) {
    const text = EXT_SPEED_TEXT[rate.speed] ?? '';
    const enabled = r.speedExtEnabled.split(/\s+or\s+/);
    if (r.speedExtActive !== text || enabled[enabled.length - 1] !== text) {
      return `speed active ${r.speedExtActive || '?'} enabled "${r.speedExtEnabled}", want ${text}`;
    }
  }
  return undefined;
}

function setOps(rate: LinkRate): string[][] {
  const ops: string[][] = [];
  // Keep 1X in the width mask, as OpenSM does; every ext speed up to the target.
  if (rate.width) ops.push(['width', String(WIDTH_BIT[rate.width] | 1)]);
  if (rate.speed) {
    const bit = EXT_SPEED_BIT[rate.speed];
    if (!bit) throw new Error(`the lab can set FDR, EDR or HDR, not ${rate.speed} (ibsim 0.10 has no NDR)`);
    ops.push(['espeed', String(bit * 2 - 1)]);
  }
  return ops;
}

async function readRate(lab: Lab, end: PortAddr): Promise<PortRate> {
  const out = await lab.runToolOk('smpquery', ['portinfo', String(await lab.lidOf(end.node)), String(end.port)], {
    timeoutMs: 15_000,
  });
  return parsePortRate(out);
}

const TRAP_144 = /num:144 \(/;
const SUBNET_UP = 'SUBNET UP';

function sweepIntervalMs(lab: Lab): number {
  const conf = lab.state.sms[0]?.conf;
  const m = conf && existsSync(conf) ? /^sweep_interval\s+(\d+)/m.exec(readFileSync(conf, 'utf8')) : null;
  return (m ? Number(m[1]) : 2) * 1000;
}

/**
 * Waits until OpenSM has finished the sweeps our Sets forced: in a running SM's log, after the
 * given offsets, the last trap 144 line is followed by `SUBNET UP` (a trap arriving mid-sweep makes
 * OpenSM repeat discovery before it logs `SUBNET UP`). Falls back to two sweep intervals when no
 * trap shows up (e.g. a different log_flags), bounded by `maxMs`.
 */
async function waitForTrapSweep(lab: Lab, offsets: Map<string, number>, maxMs: number): Promise<void> {
  const deadline = Date.now() + Math.min(maxMs, 2 * sweepIntervalMs(lab) + 2000);
  while (Date.now() < deadline) {
    for (const sm of lab.state.sms) {
      if (sm.pid === null || !isAlive(sm.pid) || !existsSync(sm.log)) continue;
      const buf = readFileSync(sm.log);
      const from = offsets.get(sm.id) ?? 0;
      const lines = buf
        .subarray(buf.length < from ? 0 : from)
        .toString('utf8')
        .split('\n');
      let lastTrap = -1;
      lines.forEach((l, i) => {
        if (TRAP_144.test(l)) lastTrap = i;
      });
      if (lastTrap >= 0 && lines.slice(lastTrap + 1).some((l) => l.includes(SUBNET_UP))) return;
    }
    await sleep(100);
  }
}

/**
 * Sets a link's width and/or speed on BOTH ends (each addressed by its own LID and port: the
 * tool's peer half times out under ibsim, `DR path slid 1; dlid 65535; 0,22`), then checks both
 * ends with smpquery after OpenSM's sweep and re-applies the ends OpenSM wrote back (see the file
 * comment), up to `attempts` rounds within `timeoutMs`. Throws with both ends' state if it does not
 * hold. Works for HCA links and switch-switch links.
 */
export async function setLinkRate(
  lab: Lab,
  p: PortAddr,
  rate: LinkRate,
  o: { timeoutMs?: number; attempts?: number } = {},
): Promise<void> {
  const ops = setOps(rate);
  if (!ops.length) return;
  const ends = [p, peerOf(lab, p)];
  const deadline = Date.now() + (o.timeoutMs ?? 90_000);
  const attempts = o.attempts ?? 5;
  let pending = ends;
  let why: string[] = [];
  for (let attempt = 1; attempt <= attempts && Date.now() < deadline; attempt++) {
    const offsets = new Map(lab.state.sms.map((sm) => [sm.id, fileSize(sm.log)]));
    for (const end of pending) {
      const lid = String(await lab.lidOf(end.node));
      for (const op of ops) await lab.runToolOk('ibportstate', [lid, String(end.port), ...op], { timeoutMs: 15_000 });
    }
    await waitForTrapSweep(lab, offsets, deadline - Date.now());
    why = [];
    const next: PortAddr[] = [];
    for (const end of ends) {
      const miss = rateMismatch(await readRate(lab, end), rate);
      if (miss) {
        next.push(end);
        why.push(`"${end.node}"[${end.port}]: ${miss}`);
      }
    }
    if (!next.length) return;
    pending = next;
  }
  throw new Error(`link "${p.node}"[${p.port}] did not hold ${JSON.stringify(rate)}: ${why.join('; ')}`);
}

/** Degrades a link (see {@link setLinkRate}). */
export async function degradeLink(lab: Lab, p: PortAddr, rate: LinkRate): Promise<void> {
  await setLinkRate(lab, p, rate);
  const where = linkWhere(p, peerOf(lab, p));
  const what = [rate.width && `width ${rate.width}`, rate.speed && `speed ${rate.speed}`].filter(Boolean).join(', ');
  noteFault(lab.state.runDir, { key: `rate ${where}`, kind: 'rate', where, what });
}

/** Restores a link to the topology's expected width and speed. */
export function restoreLink(lab: Lab, p: PortAddr): Promise<void> {
  const t = lab.topology();
  const key = `rate ${linkWhere(p, peerOf(lab, p))}`;
  return setLinkRate(lab, p, { width: t.width, speed: t.speed }).then(() => {
    clearFaults(lab.state.runDir, (f) => f.key === key);
  });
}
