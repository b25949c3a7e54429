/**
 * Generated tool outputs served to the collector in two ways: an in-process `ToolRunner` (the
 * ingest stages run the real scan pipeline without process start-up noise), and shell scripts on
 * a PATH directory (the API stage's server sweeps on its own schedule, like on a head node).
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolRun, ToolRunner } from '../../apps/collector/src/sources/tool-runner.ts';
import type { BenchFabric } from '../../packages/parsers/bench/fabric.ts';
import { ibnetdiscoverText, iblinkinfoText, ibqeCountersText, ibqeErrorsText } from '../gen/diags-text.ts';
import { SweepState } from '../../packages/parsers/bench/sweeps.ts';

const SMIR = (lid: number, guid: string) =>
  `SMInfoRecord dump:\n\t\tRID\n\t\tLID...................${lid}\n\t\tSMInfo ` +
  `dump:\n\t\tGUID..................${guid}\n` +
  '\t\tSM_Key................0x0000000000000000\n\t\tActCount..............3166\n' +
  '\t\tPriority..............15\n\t\tSMState...............3\n';

interface Sweep {
  errors: string;
  counters: string;
  errorsBytes: Buffer;
  countersBytes: Buffer;
}

const sweepOf = (errors: string, counters: string): Sweep => ({
  errors,
  counters,
  errorsBytes: Buffer.from(errors),
  countersBytes: Buffer.from(counters),
});

/** Tool outputs of one fabric; `pm()` advances the sweep model by one sweep. */
export class FakeFabricTools {
  readonly state: SweepState;
  private topo: { disc: string; link: string } | null = null;
  private pmText: Sweep | null = null;

  constructor(readonly fabric: BenchFabric) {
    this.state = new SweepState(fabric);
  }

  topology(): { disc: string; link: string } {
    this.topo ??= { disc: ibnetdiscoverText(this.fabric), link: iblinkinfoText(this.fabric) };
    return this.topo;
  }

  private queue: Sweep[] = [];

  /** Renders `n` sweeps ahead, so that timing the runner does not time the generator. */
  prerender(n: number): void {
    for (let i = 0; i < n; i++) {
      this.state.advance();
      this.queue.push(sweepOf(ibqeErrorsText(this.fabric, this.state), ibqeCountersText(this.fabric, this.state)));
    }
  }

  /** Advance one sweep and render both ibqueryerrors outputs. */
  nextSweep(): Sweep {
    const q = this.queue.shift();
    if (q) return (this.pmText = q);
    this.state.advance();
    this.pmText = sweepOf(ibqeErrorsText(this.fabric, this.state), ibqeCountersText(this.fabric, this.state));
    return this.pmText;
  }

  /** A ToolRunner for `createContext(config, { runner })`; each `--counters` call is a new sweep. */
  runner(): ToolRunner {
    const ok = (tool: string, args: string[], stdout: string, stdoutBytes?: Buffer): ToolRun => ({
      tool,
      args,
      stdout,
      stderr: '',
      exitCode: 0,
      signal: null,
      durationMs: 0,
      timedOut: false,
      truncated: false,
      spawnError: null,
      ...(stdoutBytes ? { stdoutBytes } : {}),
    });
    // Asked for bytes (as the collector asks for ibqueryerrors), the runner hands over the
    // pre-encoded bytes, as the real one hands over the pipe's.
    const pm = (tool: string, args: string[], text: string, bytes: Buffer, opts?: { bytes?: boolean }) =>
      opts?.bytes ? ok(tool, args, text, bytes) : ok(tool, args, text);
    const sm = this.fabric.topo.nodes.find((n) => n.role === 'head-hca')!;
    return {
      run: async (tool, args, opts) => {
        if (args.includes('-V')) return ok(tool, args, `${tool} BUILD VERSION: 44.0 Build date: bench`);
        // A PM sweep's fabric snapshot: the file, its topology printed to /dev/null.
        if (tool === 'ibnetdiscover' && args[0] === '--cache') {
          writeFileSync(args[1]!, 'bench fabric snapshot');
          return ok(tool, args, '');
        }
        if (tool === 'ibnetdiscover') return ok(tool, args, this.topology().disc);
        if (tool === 'iblinkinfo') return ok(tool, args, this.topology().link);
        if (tool === 'saquery') return ok(tool, args, SMIR(this.fabric.lidOf.get(sm.name)!, sm.portGuid ?? sm.guid));
        if (tool === 'ibqueryerrors' && args.includes('--counters')) {
          const s = this.nextSweep();
          return pm(tool, args, s.counters, s.countersBytes, opts);
        }
        if (tool === 'ibqueryerrors') {
          const s = this.pmText ?? this.nextSweep();
          return pm(tool, args, s.errors, s.errorsBytes, opts);
        }
        return { ...ok(tool, args, ''), exitCode: 127, spawnError: 'ENOENT' };
      },
    };
  }

  /**
   * Writes `dir/bin/{ibnetdiscover,iblinkinfo,saquery,ibqueryerrors}` that print pre-rendered
   * outputs of `sweeps` consecutive sweeps, cycling with the wall clock (one sweep per `periodS`).
   */
  writeScripts(dir: string, sweeps: number, periodS: number): string {
    const bin = join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    const t = this.topology();
    writeFileSync(join(dir, 'ibnetdiscover.txt'), t.disc);
    writeFileSync(join(dir, 'iblinkinfo.txt'), t.link);
    const sm = this.fabric.topo.nodes.find((n) => n.role === 'head-hca')!;
    writeFileSync(join(dir, 'saquery.txt'), SMIR(this.fabric.lidOf.get(sm.name)!, sm.portGuid ?? sm.guid));
    for (let i = 0; i < sweeps; i++) {
      const s = this.nextSweep();
      writeFileSync(join(dir, `errors-${i}.txt`), s.errors);
      writeFileSync(join(dir, `counters-${i}.txt`), s.counters);
    }
    const script = (body: string) =>
      `#!/bin/sh\ncase "$*" in *-V*) echo "BUILD VERSION: 44.0" >&2; exit 0;; esac\n${body}\n`;
    const put = (name: string, body: string) => {
      writeFileSync(join(bin, name), script(body));
      chmodSync(join(bin, name), 0o755);
    };
    // `--cache FILE /dev/null`, the PM sweep's fabric snapshot: the file, no topology.
    put('ibnetdiscover', `[ "$1" = --cache ] && { echo snapshot > "$2"; exit 0; }\ncat '${dir}/ibnetdiscover.txt'`);
    put('iblinkinfo', `cat '${dir}/iblinkinfo.txt'`);
    put('saquery', `cat '${dir}/saquery.txt'`);
    put(
      'ibqueryerrors',
      `i=$(( $(date +%s) / ${periodS} % ${sweeps} ))\ncase "$*" in *--counters*) cat ` +
        `"${dir}/counters-$i.txt";; *) cat "${dir}/errors-$i.txt";; esac`,
    );
    return bin;
  }
}
