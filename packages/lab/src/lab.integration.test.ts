/**
 * Integration: one real lab (ibsim + 2 OpenSM) at 256 GPUs, shared by the whole file, driven and
 * observed with the real infiniband-diags tools. Needs ibsim-utils, libumad2sim0, opensm and
 * infiniband-diags (installed in CI).
 */
import { describe, it, expect, beforeAll, afterAll, afterEach, vi } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { makeTempDir, removeDir } from '@ibwatch/testkit';
import {
  addCounter,
  degradeLink,
  ERROR_COUNTERS,
  linkDown,
  linkUp,
  readCounters,
  resetCounters,
  restoreLink,
  setCounter,
  setDropRate,
} from './faults.ts';
import type { ActiveFault } from './fault-log.ts';
import type { Lab } from './lab.ts';
import { isAlive, sleep } from './proc.ts';
import { attachLab, LabAlreadyRunningError, startLab } from './runner.ts';
import { hcaForRogue, startRogueSm, stopRogueSms } from './rogue-sm.ts';
import { killMasterSm, killSm, restartSm } from './sm-control.ts';
import { labStatus, parseSminfo, parseSmir } from './status.ts';

let lab: Lab;
let dir: string;

/**
 * Per-test budgets for a loaded 2-core CI box (vitest's 5 s default is too short there: every
 * diags tool run is a process start plus umad2sim setup, and several lab files run in parallel).
 * Waits inside the tests poll real state with their own deadlines; these only bound the whole test.
 */
const T = { quick: 30_000, tools: 60_000, sweep: 90_000, failover: 150_000 };

beforeAll(async () => {
  dir = makeTempDir('ibwatch-lab-it');
  lab = await startLab({ dir, gpus: 256 });
}, 120_000);

afterAll(async () => {
  await lab?.stop();
  removeDir(dir);
}, 60_000);

/** The `iblinkinfo -l` line of one switch port. */
async function linkLine(node: string, port: number): Promise<string> {
  const out = await lab.runToolOk('iblinkinfo', ['-l'], { timeoutMs: 20_000 });
  const re = new RegExp(`^0x[0-9a-f]+\\s+"\\s*${node}"\\s+\\d+\\s+${port}\\[`);
  const line = out.split('\n').find((l) => re.test(l));
  if (!line) throw new Error(`no iblinkinfo line for "${node}"[${port}]`);
  return line;
}

/** `pnpm lab <args>` on this lab, in a process of its own; its stdout. */
async function runLabCli(args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'cli.ts'), ...args, '--dir', dir],
    { timeout: 60_000 },
  );
  return stdout;
}

async function until<T>(what: string, f: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await f().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

describe('lab at 256 GPUs', () => {
  // The file shares one lab: a failed SM test must not hand the next one a frozen, dead or rogue SM
  // (one CI run's failover test failed and left the master dead, and six tests after it failed too).
  afterEach(async () => {
    if ((lab.state.rogueSms ?? []).length > 0) await stopRogueSms(lab);
    for (const sm of lab.state.sms) if (sm.pid !== null && isAlive(sm.pid)) process.kill(sm.pid, 'SIGCONT');
    for (const sm of lab.state.sms) if (sm.pid === null || !isAlive(sm.pid)) await restartSm(lab, sm.id);
  }, T.failover);

  it(
    'comes up with ftree, a master at priority 15 and a standby',
    async () => {
      expect(lab.state.routing).toBe('ftree');
      const info = parseSminfo(await lab.runToolOk('sminfo', []));
      expect(info).toMatchObject({ priority: 15, state: 'MASTER', guid: lab.state.sms[0].portGuid });
      const st = await labStatus(lab);
      expect(st.sms.map((s) => [s.priority, s.state])).toEqual([
        [15, 'MASTER'],
        [1, 'STANDBY'],
      ]);
      expect(st.fabric).toMatchObject({ switches: 17, cas: 258 });
      const switches = (await lab.runToolOk('ibswitches', [])).trim().split('\n');
      expect(switches).toHaveLength(17);
    },
    T.tools,
  );

  it(
    'refuses a second start in the same dir and can be attached from the state file',
    async () => {
      await expect(startLab({ dir, gpus: 256 })).rejects.toBeInstanceOf(LabAlreadyRunningError);
      const other = await attachLab(dir);
      expect(other.state.sockName).toBe(lab.state.sockName);
      expect(other.toolEnv().env.LD_PRELOAD).toMatch(/libumad2sim\.so$/);
    },
    T.quick,
  );

  it(
    'sets every error counter kind, seen by perfquery and ibqueryerrors',
    async () => {
      const port = { node: 'leaf-r1-01', port: 35 };
      for (const [i, c] of ERROR_COUNTERS.entries()) await setCounter(lab, port, c, (i % 7) + 3);
      const read = await readCounters(lab, port);
      for (const [i, c] of ERROR_COUNTERS.entries()) expect(read[c], c).toBe(BigInt((i % 7) + 3));
      // ibqueryerrors exits 1 when it found errors: data, not a failure.
      const q = await lab.runTool('ibqueryerrors', [], { timeoutMs: 30_000 });
      expect(q.exitCode).toBe(1);
      const errs = q.stdout;
      expect(errs).toMatch(/"leaf-r1-01"[^]*port 35: .*\[SymbolErrorCounter == 3\]/);
      await resetCounters(lab, port);
      expect((await readCounters(lab, port)).SymbolErrorCounter).toBe(0n);
    },
    T.tools,
  );

  it(
    'adds to a counter after reading it',
    async () => {
      const port = { node: 'dgx-0003 mlx5_2', port: 1 };
      expect(await addCounter(lab, port, 'PortRcvErrors', 5)).toBe(5);
      expect(await addCounter(lab, port, 'PortRcvErrors', 4)).toBe(9);
      expect(await addCounter(lab, port, 'LocalLinkIntegrityErrors', 40)).toBe(15); // 4-bit counter saturates
      expect((await readCounters(lab, port)).PortRcvErrors).toBe(9n);
    },
    T.tools,
  );

  it(
    'degrades width and speed on both ends, survives a sweep, and restores',
    async () => {
      // degradeLink itself waits for OpenSM's trap-forced sweep and checks both ends with smpquery.
      const spineLink = { node: 'leaf-r2-01', port: 33 };
      const hcaLink = { node: 'dgx-0005 mlx5_1', port: 1 };
      const speedLink = { node: 'leaf-r0-01', port: 34 };
      await degradeLink(lab, spineLink, { width: '2X' });
      await degradeLink(lab, hcaLink, { width: '2X' });
      await degradeLink(lab, speedLink, { speed: 'EDR' });
      // Still degraded after more than a sweep interval (a one-sided change would be undone by now).
      await sleep(2500);
      expect(await linkLine('leaf-r2-01', 33)).toMatch(/\( 2X\s+53\.125 Gbps Active/);
      expect(await linkLine('leaf-r1-01', 5)).toMatch(/\( 2X\s+53\.125 Gbps Active.*"dgx-0005 mlx5_1"/);
      expect(await linkLine('leaf-r0-01', 34)).toMatch(/\( 4X\s+25\.78125 Gbps Active.*Could be 53\.125 Gbps/);
      for (const p of [spineLink, hcaLink, speedLink]) await restoreLink(lab, p);
      expect(await linkLine('leaf-r2-01', 33)).toMatch(/\( 4X\s+53\.125 Gbps Active/);
      expect(await linkLine('leaf-r1-01', 5)).toMatch(/\( 4X\s+53\.125 Gbps Active/);
      expect(await linkLine('leaf-r0-01', 34)).toMatch(/\( 4X\s+53\.125 Gbps Active/);
    },
    T.sweep,
  );

  it(
    'fails over to the standby when the master dies, and back on restart',
    async () => {
      const t0 = Date.now();
      const warn = vi.spyOn(console, 'warn'); // still printed: a stall is worth seeing in CI's log
      let stalled: boolean;
      try {
        const { killed, master } = await killMasterSm(lab, { timeoutMs: 30_000 });
        expect(killed.priority).toBe(15);
        const after = parseSminfo(await lab.runToolOk('sminfo', []));
        expect(after).toMatchObject({ guid: master.portGuid, priority: 1, state: 'MASTER' });
        stalled = /logged no "SUBNET UP"/.test(warn.mock.calls.flat().join('\n'));
      } finally {
        warn.mockRestore();
      }
      // A takeover takes 3-6 s. One whose sweep stalled on ibsim is detected only at the end of
      // the sweep budget (15 s here) and then restarted alone: the SIGSTOP tests below cover that
      // path, so the time bound holds for a takeover that did not stall (one CI run saw 15.3 s).
      if (!stalled) expect(Date.now() - t0).toBeLessThan(15_000);
      await restartSm(lab, 'a');
      const back = await until('priority 15 master', async () => {
        const i = parseSminfo(await lab.runToolOk('sminfo', []));
        return i?.priority === 15 && i.state === 'MASTER' ? i : undefined;
      });
      expect(back.guid).toBe(lab.state.sms[0].portGuid);
      const st = await labStatus(lab);
      expect(st.sms.map((x) => [x.priority, x.state])).toEqual([
        [15, 'MASTER'],
        [1, 'STANDBY'],
      ]);
    },
    T.failover,
  );
  // With wait: false (a caller watching the takeover) the same recovery runs in the background.
  for (const wait of [true, false])
    it(
      `restarts a standby whose takeover stalls (frozen with SIGSTOP): it comes back alone as MASTER (wait: ${wait})`,
      async () => {
        const b = lab.state.sms.find((s) => s.id === 'b')!;
        const frozen = b.pid!;
        const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
        try {
          // A stopped process keeps its ibsim slot and logs nothing: from outside, a sweep that stalled.
          process.kill(frozen, 'SIGSTOP');
          const { killed, master, takeover } = await killMasterSm(lab, { timeoutMs: 60_000, wait });
          await takeover;
          expect([killed.id, master.id]).toEqual(['a', 'b']);
          expect(warn.mock.calls.flat().join('\n')).toMatch(/opensm b logged no "SUBNET UP" .* restarting it alone/);
        } finally {
          warn.mockRestore();
        }
        expect(b.pid).not.toBe(frozen);
        expect(isAlive(frozen)).toBe(false);
        const after = parseSminfo(await lab.runToolOk('sminfo', []));
        expect(after).toMatchObject({ guid: b.portGuid, priority: 1, state: 'MASTER' });
        await restartSm(lab, 'a');
        const st = await labStatus(lab);
        expect(st.sms.map((x) => [x.id, x.state])).toEqual([
          ['a', 'MASTER'],
          ['b', 'STANDBY'],
        ]);
      },
      T.failover,
    );
  it(
    'starts a priority-15 rogue SM at a compute HCA: it takes the subnet, and when stopped the lab ' +
      'master takes it back',
    async () => {
      const { sm, state } = await startRogueSm(lab, 'dgx-0003');
      expect(sm).toMatchObject({ host: 'dgx-0003 mlx5_0', priority: 15, id: 'rogue-dgx-0003' });
      expect(state).toBe('MASTER');
      const rogue = await until('the rogue SM in saquery SMIR as MASTER', async () => {
        const r = await lab.runTool('saquery', ['SMIR'], { timeoutMs: 10_000 });
        return parseSmir(r.stdout).find((x) => x.guid === sm.portGuid && x.state === 'MASTER');
      });
      expect(rogue.priority).toBe(15);
      expect((await labStatus(lab)).sms.map((x) => [x.id, x.state])).toEqual([
        ['a', 'STANDBY'],
        ['b', 'STANDBY'],
        ['rogue-dgx-0003', 'MASTER'],
      ]);
      expect(() => hcaForRogue(lab, 'dgx-0003 mlx5_0')).toThrow(/already runs SM rogue-dgx-0003/);

      expect((await stopRogueSms(lab)).map((x) => x.id)).toEqual(['rogue-dgx-0003']);
      expect(lab.state.rogueSms).toEqual([]);
      const back = await until('a lab SM as master', async () => parseSminfo(await lab.runToolOk('sminfo', [])));
      expect(back).toMatchObject({ guid: lab.state.sms[0].portGuid, state: 'MASTER' });
      expect((await lab.attachedClients()).filter((c) => c.sm)).toHaveLength(2);
    },
    T.failover,
  );

  // One retry, after afterEach has healed the pair: the SA drops the dead standby in ~3 s, but
  // once in a CI run (2026-12-06) the master's poll of it stalled past 30 s, the ibsim race
  // sm-pair.ts describes (a MAD forwarded to a dead client is lost without a timeout).
  const standbyRun = { timeout: T.failover, retry: 1 };
  it('kills the standby SM, which the SA then no longer lists, and joins it again', standbyRun, async () => {
    const b = await killSm(lab, 'b');
    expect(b.pid).toBeNull();
    await until('the standby gone from saquery SMIR', async () => {
      const r = await lab.runTool('saquery', ['SMIR'], { timeoutMs: 10_000 });
      return r.exitCode === 0 && !parseSmir(r.stdout).some((x) => x.guid === b.portGuid) ? true : undefined;
    });
    await restartSm(lab, 'b');
    const st = await labStatus(lab);
    expect(st.sms.map((x) => [x.id, x.state])).toEqual([
      ['a', 'MASTER'],
      ['b', 'STANDBY'],
    ]);
  });

  it(
    'drops MADs at a port and stops when cleared',
    async () => {
      const p = { node: 'dgx-0010 mlx5_0', port: 1 };
      const lid = await lab.lidOf(p.node);
      await setDropRate(lab, p, 100);
      const r = await lab.runTool('perfquery', ['-t', '200', String(lid), '1'], { timeoutMs: 10_000 });
      expect(r.exitCode).not.toBe(0);
      await setDropRate(lab, p, 0);
      const ok = await lab.runTool('perfquery', ['-t', '2000', String(lid), '1'], { timeoutMs: 15_000 });
      expect(ok.exitCode).toBe(0);
      expect(parseInt(/PortRcvErrors:\.*(\d+)/.exec(ok.stdout)?.[1] ?? '0', 10)).toBeGreaterThan(0);
    },
    T.tools,
  );

  it(
    'frees the ibsim slot of a tool killed by its timeout',
    async () => {
      // `iblinkinfo -S <guid>` waits forever on a MAD ibsim never answers (docs/lab.md).
      const r = await lab.runTool('iblinkinfo', ['-S', lab.topology().nodes[0].guid], { timeoutMs: 1500 });
      expect(r.timedOut).toBe(true);
      const clients = await lab.attachedClients();
      expect(clients.every((c) => isAlive(c.pid))).toBe(true);
      expect(clients.filter((c) => c.sm)).toHaveLength(2);
    },
    T.tools,
  );

  it(
    'lab status lists the faults injected and not undone (what, where, since when); undoing them removes them',
    async () => {
      const counterPort = { node: 'leaf-r3-01', port: 36 };
      const dropPort = { node: 'dgx-0012 mlx5_0', port: 1 };
      const downPort = { node: 'dgx-0013 mlx5_0', port: 1 };
      const t0 = Date.now();
      await setCounter(lab, counterPort, 'SymbolErrorCounter', 120);
      await setDropRate(lab, dropPort, 50);
      await linkDown(lab, downPort);
      const mine = (fs: ActiveFault[]) =>
        fs.filter((f) => [counterPort, dropPort, downPort].some((p) => f.where.includes(`"${p.node}"[${p.port}]`)));
      const listed = mine((await labStatus(lab)).faults);
      expect(listed.map((f) => [f.kind, f.what])).toEqual([
        ['counter', 'SymbolErrorCounter = 120'],
        ['drop', 'drops 50% of MADs'],
        ['link-down', 'down (Unlink)'],
      ]);
      expect(listed[2]!.where).toMatch(/^"dgx-0013 mlx5_0"\[1\] <-> "leaf-r\d+-\d+"\[\d+\]$/);
      for (const f of listed) expect(Date.parse(f.since)).toBeGreaterThanOrEqual(t0 - 1000);
      // Another process (the CLI) sees the same list.
      const cli = await runLabCli(['status', '--json']);
      expect(mine((JSON.parse(cli) as { faults: ActiveFault[] }).faults)).toEqual(listed);
      await linkUp(lab, downPort);
      await setDropRate(lab, dropPort, 0);
      await resetCounters(lab, counterPort);
      expect(mine((await labStatus(lab)).faults)).toEqual([]);
    },
    T.tools,
  );

  it(
    'takes a link down with a counted flap and brings it back',
    async () => {
      const p = { node: 'spine-02', port: 5 }; // leaf-r1-01 uplink
      const before = (await readCounters(lab, p)).LinkDownedCounter ?? 0n;
      await linkDown(lab, p, { countFlap: true });
      await until('link down', async () => (/Down\/\s*Polling/.test(await linkLine('spine-02', 5)) ? true : undefined));
      expect((await readCounters(lab, p)).LinkDownedCounter).toBe(before + 1n);
      await linkUp(lab, p);
      await until(
        'link active',
        async () => ((await linkLine('spine-02', 5)).includes('Active/  LinkUp') ? true : undefined),
        45_000,
      );
    },
    T.sweep,
  );
});

describe('teardown', () => {
  it('kills exactly the recorded processes and leaves no files', async () => {
    const s = lab.state;
    const pids = [s.ibsim.pid, ...s.sms.map((x) => x.pid)].filter((p): p is number => p !== null);
    expect(pids.every(isAlive)).toBe(true);
    await lab.stop();
    expect(pids.some(isAlive)).toBe(false);
    expect(existsSync(s.runDir)).toBe(false);
    expect(existsSync(join(dir, 'state.json'))).toBe(false);
    await expect(attachLab(dir)).rejects.toThrow(/no lab state/);
  }, 30_000);
});
