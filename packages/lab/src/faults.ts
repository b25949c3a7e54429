/**
 * Fault injection into a running lab through ibsim's console and the diags tools. Ports are
 * addressed by node name (`{ node: 'leaf-r0-01', port: 33 }`); LIDs are resolved by name at
 * run time because they depend on where the SM is attached.
 */
import { ParseError, parsePerfquery as parsePerfqueryBlocks } from '@ibwatch/parsers';
import { consolePort, type PortAddr } from './console.ts';
import type { Lab } from './lab.ts';
import { peerOf } from './link-rate.ts';
import { clearFaults, counterKey, linkWhere, noteFault } from './fault-log.ts';

export { degradeLink, parsePortRate, peerOf, rateMismatch, restoreLink, setLinkRate } from './link-rate.ts';
export type { LinkRate, PortRate } from './link-rate.ts';

/** PortCounters fields PerformanceSet and perfquery both know, with their saturation value. */
export const PORT_COUNTER_MAX: Record<string, number> = {
  SymbolErrorCounter: 0xffff,
  LinkErrorRecoveryCounter: 0xff,
  LinkDownedCounter: 0xff,
  PortRcvErrors: 0xffff,
  PortRcvRemotePhysicalErrors: 0xffff,
  PortRcvSwitchRelayErrors: 0xffff,
  PortXmitDiscards: 0xffff,
  PortXmitConstraintErrors: 0xff,
  PortRcvConstraintErrors: 0xff,
  LocalLinkIntegrityErrors: 0xf,
  ExcessiveBufferOverrunErrors: 0xf,
  VL15Dropped: 0xffff,
  PortXmitWait: 0xffffffff,
  PortXmitData: 0xffffffff,
  PortRcvData: 0xffffffff,
  PortXmitPkts: 0xffffffff,
  PortRcvPkts: 0xffffffff,
};

/** The error counters injected by the "all kinds" tests and listed by the CLI. */
export const ERROR_COUNTERS = Object.keys(PORT_COUNTER_MAX).filter((c) => !/Data|Pkts/.test(c));

function qualified(counter: string): string {
  // "PortCounters.SymbolErrorCounter" or "PortCountersExtended.PortXmitDataExt" pass through.
  return counter.includes('.') ? counter : `PortCounters.${counter}`;
}

/**
 * ibsim reports console errors as comment lines, e.g. `# nodeid "nope" (nope) not found` or
 * `# field Bogus cannot be found in attribute PortCounters`; success is silent for Unlink,
 * ReLink and Error.
 */
export function checkReply(cmd: string, reply: string): void {
  const err = reply.split('\n').find((l) => /^#\s.*(not found|cannot|bad|invalid|error)/i.test(l));
  if (err) throw new Error(`ibsim: "${cmd}": ${err.slice(2)}`);
}

async function endLid(lab: Lab, p: PortAddr): Promise<number> {
  return lab.lidOf(p.node);
}

/**
 * Sets a PM counter of a port (`PerformanceSet "n"[p] PortCounters.X=v`). ibsim confirms with
 * `leaf-01[21] PortCounters.SymbolErrorCounter has been set to 120`; anything else throws.
 */
export async function setCounter(lab: Lab, p: PortAddr, counter: string, value: number | bigint): Promise<void> {
  const cmd = `PerformanceSet ${consolePort(p)} ${qualified(counter)}=${value}`;
  const reply = await lab.console.send(cmd);
  checkReply(cmd, reply);
  if (!/has been set to/.test(reply)) throw new Error(`ibsim rejected "${cmd}": ${reply.trim() || '(no reply)'}`);
  // Traffic (the 64-bit data and packet counters) is load, not a fault.
  const name = counter.split('.').pop()!;
  if (counter.startsWith('PortCountersExtended.') || /Data|Pkts/.test(name)) return;
  const key = counterKey(p, name);
  if (BigInt(value) === 0n) clearFaults(lab.state.runDir, (f) => f.key === key);
  else noteFault(lab.state.runDir, { key, kind: 'counter', where: consolePort(p), what: `${name} = ${value}` });
}

/** Reads a port's PortCounters with `perfquery <lid> <port>` (add `-x` for the extended set). */
export async function readCounters(lab: Lab, p: PortAddr, extended = false): Promise<Record<string, bigint>> {
  const lid = await endLid(lab, p);
  const out = await lab.runToolOk('perfquery', [...(extended ? ['-x'] : []), String(lid), String(p.port)], {
    timeoutMs: 15_000,
  });
  return parsePerfquery(out);
}

/**
 * perfquery output through @ibwatch/parsers -> one record of every value printed, selectors
 * (`PortSelect`, `CounterSelect`) included; empty when the output has no counter block.
 */
export function parsePerfquery(text: string): Record<string, bigint> {
  let blocks;
  try {
    blocks = parsePerfqueryBlocks(text).value;
  } catch (err) {
    if (err instanceof ParseError) return {};
    throw err;
  }
  return Object.assign({}, ...blocks.map((b) => ({ ...b.selectors, ...b.counters })));
}

/**
 * Adds `n` to a counter: reads the current value with perfquery first, then sets the sum
 * (saturating at the counter's width, as real ports do). Returns the new value.
 */
export async function addCounter(lab: Lab, p: PortAddr, counter: string, n: number): Promise<number> {
  const name = counter.split('.').pop() as string;
  const cur = (await readCounters(lab, p, /Ext$/.test(name)))[name];
  if (cur === undefined) throw new Error(`perfquery did not report ${name} for "${p.node}"[${p.port}]`);
  const max = PORT_COUNTER_MAX[name] ?? Number.MAX_SAFE_INTEGER;
  const next = Math.min(max, Number(cur) + n);
  await setCounter(lab, p, counter, next);
  return next;
}

/**
 * Resets a port's counters (`perfquery -R <lid> <port>`), or every port of the fabric when no
 * port is given (`ibqueryerrors -k -K`: one process instead of one per port).
 */
export async function resetCounters(lab: Lab, p?: PortAddr): Promise<void> {
  if (p) await lab.runToolOk('perfquery', ['-R', String(await endLid(lab, p)), String(p.port)], { timeoutMs: 15_000 });
  else {
    // ibqueryerrors exits 1 when it found (and here cleared) errors.
    const r = await lab.runTool('ibqueryerrors', ['-k', '-K'], { timeoutMs: 300_000 });
    if (r.exitCode !== 0 && r.exitCode !== 1) throw new Error(`ibqueryerrors -k -K failed: ${r.stderr.trim()}`);
  }
  const prefix = p ? counterKey(p, '') : 'counter ';
  clearFaults(lab.state.runDir, (f) => f.kind === 'counter' && f.key.startsWith(prefix));
}

/**
 * Takes a link down (`Unlink`: both ends go Down/Polling, trap 128, OpenSM re-routes). Unlink
 * does not count a flap, so with `countFlap` LinkDownedCounter is raised by 1 on both ends first
 * (while the far end is still reachable for the read-before-write).
 */
export async function linkDown(lab: Lab, p: PortAddr, o: { countFlap?: boolean } = {}): Promise<void> {
  if (o.countFlap) {
    for (const end of [p, peerOf(lab, p)]) await addCounter(lab, end, 'LinkDownedCounter', 1);
  }
  const reply = await lab.console.send(`Unlink ${consolePort(p)}`);
  checkReply(`Unlink ${consolePort(p)}`, reply);
  const where = linkWhere(p, peerOf(lab, p));
  noteFault(lab.state.runDir, { key: `link-down ${where}`, kind: 'link-down', where, what: 'down (Unlink)' });
}

/** Brings a link taken down by {@link linkDown} back (`ReLink`). */
export async function linkUp(lab: Lab, p: PortAddr): Promise<void> {
  const reply = await lab.console.send(`ReLink ${consolePort(p)}`);
  checkReply(`ReLink ${consolePort(p)}`, reply);
  const key = `link-down ${linkWhere(p, peerOf(lab, p))}`;
  clearFaults(lab.state.runDir, (f) => f.key === key);
}

/**
 * Drops `ratePct`% of MADs entering a port (`Error "n"[p] <rate> [attrID]`); ibsim counts the
 * drops in PortRcvErrors. 0 clears it.
 */
export async function setDropRate(lab: Lab, p: PortAddr, ratePct: number, attrId?: number): Promise<void> {
  if (!(ratePct >= 0 && ratePct <= 100)) throw new Error(`drop rate must be 0-100, got ${ratePct}`);
  const cmd = `Error ${consolePort(p)} ${Math.round(ratePct)}${attrId === undefined ? '' : ` ${attrId}`}`;
  const reply = await lab.console.send(cmd);
  checkReply(cmd, reply);
  const key = `drop ${consolePort(p)}`;
  if (Math.round(ratePct) === 0) clearFaults(lab.state.runDir, (f) => f.key === key);
  else
    noteFault(lab.state.runDir, {
      key,
      kind: 'drop',
      where: consolePort(p),
      what: `drops ${Math.round(ratePct)}% of MADs${attrId === undefined ? '' : ` (attribute ${attrId})`}`,
    });
}

/**
 * Swaps the cables of two ports of one node (the lab's leaves have no free port): each far end
 * is cabled to the other port, as two cables plugged back crossed. Returns the far ends as built.
 */
export async function swapCables(lab: Lab, p: PortAddr, q: PortAddr): Promise<[PortAddr, PortAddr]> {
  const pp = peerOf(lab, p);
  const qp = peerOf(lab, q);
  for (const x of [p, q]) {
    const cmd = `Unlink ${consolePort(x)}`;
    checkReply(cmd, await lab.console.send(cmd));
  }
  for (const [x, y] of [
    [p, qp],
    [q, pp],
  ] as const) {
    const cmd = `Link ${consolePort(x)} ${consolePort(y)}`;
    checkReply(cmd, await lab.console.send(cmd));
  }
  // Swapping the same two ports again puts the cables back.
  const key = `swap ${[consolePort(p), consolePort(q)].sort().join(' ')}`;
  if (clearFaults(lab.state.runDir, (f) => f.key === key) === 0)
    noteFault(lab.state.runDir, {
      key,
      kind: 'swap',
      where: `${consolePort(p)} and ${consolePort(q)}`,
      what: `cables crossed: ${linkWhere(p, qp)}, ${linkWhere(q, pp)}`,
    });
  return [pp, qp];
}
