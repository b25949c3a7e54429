/**
 * Scenarios for the demo: a timeline of faults played on a running lab, so that a first-time
 * visitor sees ibwatch notice what operators fear (errors on a port, a link trained down, a
 * flapping cable, a dead master SM) within minutes, without reading this package.
 *
 * `story` is the default of `scripts/demo.sh`; `quiet` plays nothing (a healthy fabric). Every
 * port is picked from the generated topology by role, so the story works at any lab size.
 */
import type { PortAddr } from './console.ts';
import { addCounter, degradeLink, linkDown, linkUp, restoreLink } from './faults.ts';
import type { Lab } from './lab.ts';
import { killMasterSm } from './sm-control.ts';
import { nodesByName, type TopoLink, type TopoNode, type Topology } from './topology.ts';

export const SCENARIOS = ['story', 'quiet'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

/** One event of a scenario. */
export interface ScenarioStep {
  /** When it happens, in seconds after the scenario starts. */
  atS: number;
  /** What happens, in an operator's words (printed as it happens). */
  say: string;
  /** Where to look in the dashboard, and when ibwatch should show it. */
  look?: string;
  /** Does it on the lab; may return a detail line (e.g. the counter's new value). */
  act: (lab: Lab) => Promise<string | undefined>;
}

/** The ports and links the story uses, chosen from the topology (exported for tests). */
export interface StoryCast {
  /** An HCA port of a GPU node: the symbol-error burst. */
  noisyHca: PortAddr;
  /** A leaf's uplink to a spine: trained down to 2X, repaired later. */
  uplink: TopoLink;
  /** A GPU HCA's cable, switch end first: the flapping host link. */
  hostLink: { switchEnd: PortAddr; hcaEnd: PortAddr };
}

function pick<T>(xs: T[], index: number, what: string): T {
  if (xs.length === 0) throw new Error(`the lab has no ${what}`);
  return xs[Math.min(index, xs.length - 1)]!;
}

/** Picks the story's ports: GPU HCAs on different hosts and a leaf-spine cable of another leaf. */
export function storyCast(t: Topology): StoryCast {
  const nodes = nodesByName(t);
  const role = (name: string) => nodes.get(name)?.role;
  const gpuHcas = t.nodes.filter((n) => n.role === 'gpu-hca');
  const hostsOf = [...new Set(gpuHcas.map((n) => n.host))];
  const hcaOf = (host: string | undefined, rail: number): TopoNode =>
    gpuHcas.find((n) => n.host === host && n.rail === rail) ?? pick(gpuHcas, 0, 'GPU HCA');
  const noisy = hcaOf(pick(hostsOf, 2, 'GPU node'), 2);
  const flappy = hcaOf(pick(hostsOf, 9, 'GPU node'), 5);
  const uplinks = t.links.filter((l) => role(l.a.node) === 'leaf' && role(l.b.node) === 'spine');
  const leaves = [...new Set(uplinks.map((l) => l.a.node))];
  const leaf = pick(leaves, 1, 'leaf with spine uplinks');
  const uplink = pick(
    uplinks.filter((l) => l.a.node === leaf),
    1,
    'uplink',
  );
  const hostCable = t.links.find((l) => l.a.node === flappy.name || l.b.node === flappy.name);
  if (!hostCable) throw new Error(`"${flappy.name}" has no cable in the topology`);
  const [hcaEnd, switchEnd] =
    hostCable.a.node === flappy.name ? [hostCable.a, hostCable.b] : [hostCable.b, hostCable.a];
  return { noisyHca: { node: noisy.name, port: 1 }, uplink, hostLink: { switchEnd, hcaEnd } };
}

/** `dgx-0003 mlx5_2 port 1 (rack R01 U22)`: a port as a technician would look for it. */
export function where(t: Topology, p: PortAddr): string {
  const n = nodesByName(t).get(p.node);
  return `${p.node} port ${p.port}${n ? ` (rack ${n.rack} U${n.u})` : ''}`;
}

/**
 * The story, in seconds from its start (the collector's first scans done). With the demo's
 * cadence (PM sweep every 15 s, SM scan every 10 s, topology every 20 s) each event is on the
 * dashboard well within a minute: the burst by minute 1, the 2X link and the flaps by minute 2,
 * the failover by minute 3; the 2X link is repaired at 4:30.
 */
export function storyScenario(t: Topology): ScenarioStep[] {
  const cast = storyCast(t);
  const hca = where(t, cast.noisyHca);
  const up = `${where(t, cast.uplink.a)} <-> ${where(t, cast.uplink.b)}`;
  const host = `${where(t, cast.hostLink.hcaEnd)} <-> ${where(t, cast.hostLink.switchEnd)}`;
  const burst = (n: number) => async (lab: Lab) =>
    `SymbolErrorCounter +${n}, now ${await addCounter(lab, cast.noisyHca, 'SymbolErrorCounter', n)}`;
  const flap = (atS: number, i: number): ScenarioStep[] => [
    {
      atS,
      say: `host link ${host} goes down (flap ${i} of 3)`,
      look: i === 1 ? 'Topology and Worklist: "link flapped" on this cable after the next PM sweep' : undefined,
      act: async (lab) => {
        await linkDown(lab, cast.hostLink.switchEnd, { countFlap: true });
        return undefined;
      },
    },
    {
      atS: atS + 8,
      say: `host link ${host} is back up`,
      act: async (lab) => {
        await linkUp(lab, cast.hostLink.switchEnd);
        return undefined;
      },
    },
  ];
  return [
    {
      atS: 15,
      say: `symbol errors start on HCA port ${hca}`,
      look: 'Overview and Worklist: a symbol-error finding on this cable after the next PM sweep (15 s)',
      act: burst(150),
    },
    { atS: 30, say: `symbol errors keep rising on ${hca}`, act: burst(400) },
    {
      atS: 40,
      say: `leaf-spine link ${up} trains down to 2X`,
      look: 'Topology (the link turns red) and Worklist: "width 4X->2X" after the next topology scan (20 s)',
      act: async (lab) => {
        await degradeLink(lab, cast.uplink.a, { width: '2X' });
        return 'both ends report 2X';
      },
    },
    { atS: 45, say: `the symbol-error burst on ${hca} ends`, act: burst(250) },
    ...flap(75, 1),
    ...flap(95, 2),
    ...flap(115, 3),
    {
      atS: 140,
      say: 'the master subnet manager is killed',
      look: 'Subnet managers: the failover, and no standby left, after the next SM scan (10 s)',
      act: async (lab) => {
        const t0 = Date.now();
        const { killed, master } = await killMasterSm(lab);
        const s = ((Date.now() - t0) / 1000).toFixed(1);
        return `SM on "${killed.host}" killed; the standby on "${master.host}" is MASTER after ${s} s`;
      },
    },
    {
      atS: 270,
      say: `the 2X link ${up} is reseated: back to 4X`,
      look: 'Topology and Worklist: the link is healthy again',
      act: async (lab) => {
        // LIDs may have moved with the master SM; read them again before addressing the ends.
        await lab.refreshLids();
        await restoreLink(lab, cast.uplink.a);
        return `both ends report ${t.width}`;
      },
    },
  ];
}

/** The steps of a scenario by name. */
export function scenarioSteps(name: ScenarioName, t: Topology): ScenarioStep[] {
  return name === 'story' ? storyScenario(t) : [];
}

/** Waits `ms`, or less when the signal aborts. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((done) => {
    if (signal?.aborted) return done();
    const t = setTimeout(finish, ms);
    function finish() {
      clearTimeout(t);
      signal?.removeEventListener('abort', finish);
      done();
    }
    signal?.addEventListener('abort', finish, { once: true });
  });
}

/** `1:05` for 65 s. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export interface PlayOptions {
  /** Where each event is reported (one line each). */
  log: (line: string) => void;
  /** Time compression for tests: 10 plays a 5-minute story in 30 s. Default 1. */
  speed?: number;
  /** Stops between steps. */
  signal?: AbortSignal;
  /** When the scenario's clock started (ms since epoch); default now. */
  startedAt?: number;
}

/**
 * Plays the steps in order at their times. A step that fails is reported and the story goes on:
 * a demo that stops at its first hiccup tells nothing. Returns the steps that failed.
 */
export async function playScenario(lab: Lab, steps: ScenarioStep[], o: PlayOptions): Promise<string[]> {
  const speed = o.speed ?? 1;
  const t0 = o.startedAt ?? Date.now();
  const failed: string[] = [];
  for (const step of steps) {
    const wait = t0 + (step.atS * 1000) / speed - Date.now();
    if (wait > 0) await pause(wait, o.signal);
    if (o.signal?.aborted) break;
    const now = () => clock(((Date.now() - t0) / 1000) * speed);
    // Said when it starts, its outcome when it is done: what ibwatch notices in between (a
    // master SM killed is "no master" for a few seconds) reads in the order it happened.
    o.log(`${now()}  ${step.say}`);
    try {
      const detail = await step.act(lab);
      if (detail) o.log(`${now()}  -> ${detail}`);
      if (step.look) o.log(`       look: ${step.look}`);
    } catch (err) {
      failed.push(step.say);
      o.log(`${now()}  -> FAILED: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return failed;
}
