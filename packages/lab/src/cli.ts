/**
 * `pnpm lab <command>` — start, inspect, break and stop the simulated lab.
 * Run from the repo root; the lab dir defaults to `<repo>/.lab` (override: `--dir` or
 * `IBWATCH_LAB_DIR`).
 */
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import type { LinkSpeed, LinkWidth } from '@ibwatch/fabric';
import { parsePortAddr } from './console.ts';
import {
  addCounter,
  degradeLink,
  ERROR_COUNTERS,
  linkDown,
  linkUp,
  swapCables,
  resetCounters,
  restoreLink,
  setCounter,
  setDropRate,
} from './faults.ts';
import { addTraffic } from './traffic.ts';
import { attachLab, labIsRunning, LabAlreadyRunningError, startLab, stopLab } from './runner.ts';
import { currentMaster, killMasterSm, killSm, restartSm } from './sm-control.ts';
import { startRogueSm, stopRogueSms } from './rogue-sm.ts';
import { runDemo } from './demo.ts';
import { playScenario, SCENARIOS, type ScenarioName, scenarioSteps } from './scenario.ts';
import { readState } from './state.ts';
import { labStatus, type LabStatus } from './status.ts';
import { faultLines } from './fault-log.ts';

const USAGE = `usage: pnpm lab <command> [options]

  up --gpus N [--tiers 2|3] [--radix 64] [--speed HDR] [--width 4X] [--sweep 2] [--json]
                         start ibsim + master/standby OpenSM in the background
  status [--json]        SMs (GUID, LID, priority, state), fabric size, and the active faults (what, where,
                         since when) injected by 'fault' or the demo and not undone yet
  env                    shell exports to run diags tools against the lab
  down                   stop every lab process and remove the run dir
  scenario story|quiet   play a demo scenario on the running lab, printing each event (docs/demo.md)
  demo --url URL [--scenario story|quiet] [--dashboard URL] [--collector-pid PID]
                         what scripts/demo.sh runs beside the collector at URL (token: $IBWATCH_TOKEN):
                         waits for its first scans, imports the demo bandwidth history, plays the
                         scenario and prints the findings ibwatch opens and closes
  fault <kind> ...       inject a fault (ports as 'leaf-r0-01[33]' or '"dgx-0003 mlx5_2"[1]'):
    set <port> <Counter> <value>     PerformanceSet a PM counter
    add <port> <Counter> <n>         raise a PM counter by n (reads it first)
    degrade <port> [--width 2X] [--speed EDR]   on both ends of the link
    restore <port>                   back to the expected width/speed
                                     (restore, link-up, drop 0, set 0, reset, restart-sm, rogue-sm-stop
                                     and swapping back take a fault off 'status')
    link-down <port> [--flap]        Unlink (--flap: LinkDownedCounter +1 on both ends)
    link-up <port>                   ReLink
    swap <port> <port2>              plug the cables of two ports of one node back crossed (a moved cable)
    drop <port> <percent> [attrId]   MAD drop rate (0 clears)
    traffic <port> <gbps> [waitTicksPerSec] [--seconds 60]
                                     add that many seconds of traffic (64-bit data counters) and
                                     PortXmitWait; repeat once per PM sweep for sustained load
    reset [<port>]                   reset counters (one port, or the whole fabric)
    kill-master                      SIGKILL the master SM, wait for the standby to take over
    kill-sm <a|b>                    SIGKILL one lab SM (e.g. the standby b), no waiting
    restart-sm <a|b>                 restart SM a (priority 15) or b (priority 1)
    rogue-sm <host> [--priority 15]  start an OpenSM where none should run: at the HCA of <host>
                                     ('dgx-0003' or 'dgx-0003 mlx5_1'), as a forgotten opensmd would
    rogue-sm-stop                    stop every rogue SM; wait for a lab SM to be master again
    free-slots                       free ibsim client slots leaked by killed tools
common: --dir DIR (default $IBWATCH_LAB_DIR or <repo>/.lab)
counters: ${ERROR_COUNTERS.join(', ')}`;

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function scenarioName(name: string | undefined): ScenarioName {
  if (!SCENARIOS.includes(name as ScenarioName))
    throw new Error(`unknown scenario "${name ?? ''}" (scenarios: ${SCENARIOS.join(', ')})`);
  return name as ScenarioName;
}

function printStatus(st: LabStatus): void {
  const f = st.fabric;
  console.log(
    `lab ${st.dir}  socket ${st.sockName}  ibsim pid ${st.ibsim.pid} ${st.ibsim.running ? 'running' : 'NOT running'}`,
  );
  console.log(
    `fabric: ${f.gpus} GPUs, ${f.tiers} tiers, radix ${f.radix}, ${f.switches} switches, ${f.cas} HCAs, ` +
      `${f.links} links, ${f.width} ${f.speed}, routing ${st.routing}`,
  );
  for (const sm of st.sms) {
    console.log(
      `SM ${sm.id}  ${sm.state.padEnd(11)} priority ${String(sm.priority).padStart(2)}  lid ` +
        `${sm.lid ?? '-'}  guid ${sm.guid}  "${sm.host}"  pid ${sm.pid ?? '-'}`,
    );
  }
  if (st.master)
    console.log(
      `sminfo: master lid ${st.master.lid} guid ${st.master.guid} priority ${st.master.priority} ` +
        `(${st.master.host ?? '?'})`,
    );
  for (const line of faultLines(st.faults, Date.now())) console.log(line);
  for (const e of st.errors) console.log(`warning: ${e}`);
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      dir: { type: 'string' },
      gpus: { type: 'string' },
      tiers: { type: 'string' },
      radix: { type: 'string' },
      speed: { type: 'string' },
      width: { type: 'string' },
      sweep: { type: 'string' },
      json: { type: 'boolean' },
      flap: { type: 'boolean' },
      priority: { type: 'string' },
      seconds: { type: 'string' },
      url: { type: 'string' },
      dashboard: { type: 'string' },
      scenario: { type: 'string' },
      'collector-pid': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [cmd, ...rest] = positionals;
  if (values.help || !cmd) {
    console.log(USAGE);
    return cmd || values.help ? 0 : 2;
  }
  const dir = values.dir ?? process.env.IBWATCH_LAB_DIR ?? join(REPO_ROOT, '.lab');
  switch (cmd) {
    case 'up': {
      if (!values.gpus) throw new Error('up needs --gpus N');
      const gpus = Number(values.gpus);
      const tiers = values.tiers === undefined ? 'auto' : (Number(values.tiers) as 2 | 3);
      const existing = readState(dir);
      if (existing && labIsRunning(existing)) {
        const same = existing.options.gpus === gpus && (values.tiers === undefined || existing.shape.tiers === tiers);
        console.log(
          `lab already running in ${existing.dir} (${existing.shape.gpus} GPUs, ${existing.shape.tiers} tiers)`,
        );
        if (!same) {
          console.error('it differs from the requested size: run "pnpm lab down" first');
          return 1;
        }
        return 0;
      }
      try {
        const lab = await startLab({
          dir,
          gpus,
          tiers,
          radix: values.radix ? Number(values.radix) : undefined,
          speed: values.speed as LinkSpeed | undefined,
          width: values.width as LinkWidth | undefined,
          sweepInterval: values.sweep ? Number(values.sweep) : undefined,
        });
        const s = lab.state;
        const t = s.timings;
        if (values.json)
          console.log(
            JSON.stringify({ dir: s.dir, sockName: s.sockName, shape: s.shape, counts: s.counts, timings: t }),
          );
        else {
          console.log(
            `lab up in ${(t.totalMs / 1000).toFixed(2)} s (generate ` +
              `${(t.generateMs / 1000).toFixed(2)}, ibsim ${(t.ibsimReadyMs / 1000).toFixed(2)}, master ` +
              `SUBNET UP ${(t.masterUpMs / 1000).toFixed(2)}, standby ${(t.standbyUpMs / 1000).toFixed(2)})`,
          );
          console.log(
            `${s.shape.gpus} GPUs, ${s.shape.tiers} tiers: ${s.counts.switches} switches, ` +
              `${s.counts.cas} HCAs, ${s.counts.links} links, routing ${s.routing}`,
          );
          console.log(
            `dir ${s.dir}  socket ${s.sockName}  pids ibsim ${s.ibsim.pid}, opensm ` +
              `${s.sms.map((x) => x.pid).join(', ')}`,
          );
        }
      } catch (e) {
        if (e instanceof LabAlreadyRunningError) {
          console.log(e.message);
          return 0;
        }
        throw e;
      }
      return 0;
    }
    case 'status': {
      const st = await labStatus(await attachLab(dir));
      if (values.json)
        console.log(JSON.stringify(st, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2));
      else printStatus(st);
      return 0;
    }
    case 'env': {
      const te = (await attachLab(dir)).toolEnv();
      console.log(
        `export LD_PRELOAD=${te.env.LD_PRELOAD}\nexport IBSIM_SOCKNAME=${te.env.IBSIM_SOCKNAME}\ncd ` +
          `${te.cwd}  # umad2sim writes ./sys-<pid>/ here`,
      );
      return 0;
    }
    case 'down': {
      const had = await stopLab(dir);
      console.log(had ? `lab in ${dir} stopped and cleaned up` : `no lab in ${dir}`);
      return 0;
    }
    case 'fault':
      return fault(dir, rest, values);
    case 'scenario': {
      const lab = await attachLab(dir);
      const failed = await playScenario(lab, scenarioSteps(scenarioName(rest[0]), lab.topology()), {
        log: (l) => console.log(l),
      });
      return failed.length ? 1 : 0;
    }
    case 'demo': {
      if (!values.url) throw new Error('demo needs --url of the collector');
      const token = process.env.IBWATCH_TOKEN;
      if (!token) throw new Error("demo needs IBWATCH_TOKEN (the collector's write token) in the environment");
      const stop = new AbortController();
      process.once('SIGINT', () => stop.abort());
      process.once('SIGTERM', () => stop.abort());
      await runDemo({
        labDir: dir,
        url: values.url,
        dashboardUrl: values.dashboard,
        token,
        scenario: scenarioName(values.scenario ?? 'story'),
        log: (l) => console.log(l),
        signal: stop.signal,
        collectorPid: values['collector-pid'] === undefined ? undefined : Number(values['collector-pid']),
      });
      return 0;
    }
    default:
      console.error(`unknown command "${cmd}"\n${USAGE}`);
      return 2;
  }
}

async function fault(
  dir: string,
  args: string[],
  values: { width?: string; speed?: string; flap?: boolean; priority?: string; seconds?: string },
): Promise<number> {
  const [kind, portText, a, b] = args;
  const lab = await attachLab(dir);
  const port = () => {
    if (!portText) throw new Error(`fault ${kind} needs a port, e.g. 'leaf-r0-01[33]'`);
    return parsePortAddr(portText);
  };
  const num = (v: string | undefined, what: string): number => {
    const n = Number(v);
    if (v === undefined || !Number.isFinite(n)) throw new Error(`fault ${kind}: ${what} must be a number`);
    return n;
  };
  switch (kind) {
    case 'set':
      await setCounter(lab, port(), a ?? '', num(b, 'value'));
      console.log(`${portText} ${a} = ${b}`);
      break;
    case 'add':
      console.log(`${portText} ${a} = ${await addCounter(lab, port(), a ?? '', num(b, 'n'))}`);
      break;
    case 'degrade':
      if (!values.width && !values.speed) throw new Error('degrade needs --width and/or --speed');
      await degradeLink(lab, port(), {
        width: values.width as LinkWidth | undefined,
        speed: values.speed as LinkSpeed | undefined,
      });
      console.log(`${portText} and its peer set to ${values.width ?? ''} ${values.speed ?? ''}`.trim());
      break;
    case 'restore':
      await restoreLink(lab, port());
      console.log(`${portText} restored to ${lab.topology().width} ${lab.topology().speed}`);
      break;
    case 'link-down':
      await linkDown(lab, port(), { countFlap: values.flap });
      console.log(`${portText} down`);
      break;
    case 'swap': {
      if (!a) throw new Error("fault swap needs a second port, e.g. 'leaf-r0-01[2]'");
      const q = parsePortAddr(a);
      if (q.node !== port().node) throw new Error('fault swap: both ports must be on one node');
      await swapCables(lab, port(), q);
      console.log(`${portText} and ${a}: cables crossed`);
      break;
    }
    case 'link-up':
      await linkUp(lab, port());
      console.log(`${portText} up`);
      break;
    case 'drop':
      await setDropRate(lab, port(), num(a, 'percent'), b === undefined ? undefined : num(b, 'attrId'));
      console.log(`${portText} drops ${a}% of MADs`);
      break;
    case 'traffic': {
      const seconds = values.seconds === undefined ? 60 : num(values.seconds, '--seconds');
      const r = await addTraffic(lab, port(), { gbps: num(a, 'gbps'), waitTps: b ? num(b, 'ticks/s') : 0, seconds });
      console.log(`${portText} PortXmitData=${r.xmitData} PortRcvData=${r.rcvData} PortXmitWait=${r.xmitWait}`);
      break;
    }
    case 'reset':
      await resetCounters(lab, portText ? port() : undefined);
      console.log(`counters reset${portText ? ` on ${portText}` : ' on the whole fabric'}`);
      break;
    case 'kill-master': {
      const t0 = performance.now();
      const { killed, master } = await killMasterSm(lab);
      console.log(
        `killed SM ${killed.id} ("${killed.host}"); SM ${master.id} ("${master.host}") is MASTER after ` +
          `${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
      break;
    }
    case 'kill-sm': {
      if (portText !== 'a' && portText !== 'b') throw new Error('kill-sm needs a or b');
      const sm = await killSm(lab, portText);
      console.log(`killed SM ${sm.id} ("${sm.host}", priority ${sm.priority})`);
      break;
    }
    case 'rogue-sm': {
      if (!portText) throw new Error("rogue-sm needs a host, e.g. 'dgx-0003'");
      const priority = values.priority === undefined ? undefined : num(values.priority, '--priority');
      const t0 = performance.now();
      const { sm, state } = await startRogueSm(lab, portText, { priority });
      console.log(
        `rogue SM ${sm.id} at "${sm.host}" (port GUID ${sm.portGuid}, priority ${sm.priority}, pid ` +
          `${sm.pid}) is ${state} after ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
      break;
    }
    case 'rogue-sm-stop': {
      const stopped = await stopRogueSms(lab);
      const master = await currentMaster(lab);
      console.log(
        stopped.length
          ? `stopped ${stopped.map((x) => `${x.id} ("${x.host}")`).join(', ')}; master: ` +
              `${master ? `SM ${master.id} ("${master.host}")` : 'not a lab SM'}`
          : 'no rogue SM running',
      );
      break;
    }
    case 'restart-sm': {
      if (portText !== 'a' && portText !== 'b') throw new Error('restart-sm needs a or b');
      const sm = await restartSm(lab, portText);
      console.log(`SM ${sm.id} ("${sm.host}") running, pid ${sm.pid}`);
      break;
    }
    case 'free-slots': {
      const freed = await lab.freeLeakedClients();
      console.log(
        `freed ${freed.length} client slot(s)${freed.length ? ': ' + freed.map((c) => `pid ${c.pid}`).join(', ') : ''}`,
      );
      break;
    }
    default:
      console.error(`unknown fault "${kind}"\n${USAGE}`);
      return 2;
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`lab: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
