/**
 * A handle on one running lab (started here or attached from its state file): tool
 * environment, tool runs, the ibsim console, LID resolution and teardown. Fault injection
 * (faults.ts), SM control (sm-control.ts) and status (status.ts) build on it.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { IbsimConsole, parseAttached, type AttachedClient } from './console.ts';
import { generateTopology } from './generator.ts';
import { isAlive } from './proc.ts';
import { parsePortsListLids } from './lids.ts';
import { writeState, type LabState } from './state.ts';
import { stopLabState } from './teardown.ts';
import { runTool, type RunToolOptions, type ToolEnv, type ToolResult } from './tools.ts';
import type { Topology } from './topology.ts';

export class Lab {
  /** Console of this lab's ibsim. */
  readonly console: IbsimConsole;
  private topo: Topology | undefined;
  private lidCache: Map<string, number> | undefined;

  constructor(
    readonly state: LabState,
    topo?: Topology,
  ) {
    this.console = new IbsimConsole(state.paths.fifo, state.paths.simOut);
    this.topo = topo;
  }

  get dir(): string {
    return this.state.dir;
  }

  /** The generated topology (regenerated from the recorded options: generation is deterministic). */
  topology(): Topology {
    this.topo ??= generateTopology(this.state.options);
    return this.topo;
  }

  /** Environment for diags tools: run them with this cwd and these variables added. */
  toolEnv(): ToolEnv {
    return {
      cwd: this.state.paths.scratch,
      env: { LD_PRELOAD: this.state.paths.umad2sim, IBSIM_SOCKNAME: this.state.sockName },
      nodeNameMap: this.state.paths.nodeNameMap,
    };
  }

  /**
   * Runs a diags tool against the lab (bounded concurrency, timeout). A run killed by its
   * timeout keeps its ibsim client slot, so the leaked slots are freed right after.
   */
  runTool(cmd: string, args: string[], o: RunToolOptions = {}): Promise<ToolResult> {
    return runTool(this.toolEnv(), cmd, args, { onKilled: () => this.freeLeakedClients().then(() => undefined), ...o });
  }

  /** Like {@link runTool} but throws with the tool's stderr unless it exited 0. */
  async runToolOk(cmd: string, args: string[], o: RunToolOptions = {}): Promise<string> {
    const r = await this.runTool(cmd, args, o);
    if (r.exitCode !== 0) {
      throw new Error(
        `${cmd} ${args.join(' ')} failed (${r.timedOut ? 'timed out' : `exit ${r.exitCode}`}): ` +
          `${r.stderr.trim() || r.stdout.trim()}`,
      );
    }
    return r.stdout;
  }

  /** Clients attached to ibsim now (console `Attached`). */
  async attachedClients(): Promise<AttachedClient[]> {
    return parseAttached(await this.console.send('Attached'));
  }

  /**
   * Frees ibsim client slots held by dead processes (a tool killed by a signal keeps its slot:
   * ibsim only drops clients it fails to write to) with `X <n>`, and removes the `sys-<pid>`
   * dirs umad2sim left in the scratch dir. Returns the freed clients.
   */
  async freeLeakedClients(): Promise<AttachedClient[]> {
    const dead = (await this.attachedClients()).filter((c) => !isAlive(c.pid));
    for (const c of dead) await this.console.send(`X ${c.client}`);
    for (const d of readdirSync(this.state.paths.scratch)) {
      const m = /^sys-(\d+)$/.exec(d);
      if (m && !isAlive(Number(m[1]))) rmSync(join(this.state.paths.scratch, d), { recursive: true, force: true });
    }
    return dead;
  }

  /**
   * LID of a node (switch: its port-0 LID; HCA: its port LID), resolved by name from the SA's
   * NodeRecords — LIDs depend on where the SM sits, so they are never hard-coded.
   */
  async lidOf(node: string): Promise<number> {
    if (!this.lidCache?.has(node)) await this.refreshLids();
    const lid = this.lidCache?.get(node);
    if (lid === undefined) throw new Error(`no LID for node "${node}" (unknown name, or the node is not reachable)`);
    return lid;
  }

  /** Re-reads all LIDs (`ibnetdiscover -p`, one process). */
  async refreshLids(): Promise<Map<string, number>> {
    const out = await this.runToolOk('ibnetdiscover', ['-p'], { timeoutMs: 120_000 });
    this.lidCache = parsePortsListLids(out);
    return this.lidCache;
  }

  /** Stops this lab (every recorded PID) and removes its run dir, topology and state files. */
  async stop(): Promise<void> {
    await stopLabState(this.state);
  }

  /** Persists state changes (e.g. a restarted SM's PID). */
  save(): void {
    writeState(this.state);
  }
}
