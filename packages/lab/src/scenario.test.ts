import { describe, expect, it } from 'vitest';
import { generateTopology } from './generator.ts';
import { nodesByName } from './topology.ts';
import type { Lab } from './lab.ts';
import { clock, playScenario, type ScenarioStep, scenarioSteps, storyCast, storyScenario, where } from './scenario.ts';

const fabric3 = generateTopology({ gpus: 256, tiers: 3 });
const fabric2 = generateTopology({ gpus: 64, tiers: 2 });
const noLab = {} as Lab;

describe('storyCast()', () => {
  it.each([
    ['256 GPUs, 3 tiers', fabric3],
    ['64 GPUs, 2 tiers', fabric2],
  ])('picks an HCA port, a leaf-spine uplink and a host cable of different nodes (%s)', (_, t) => {
    const nodes = nodesByName(t);
    const c = storyCast(t);
    expect(nodes.get(c.noisyHca.node)?.role).toBe('gpu-hca');
    expect(c.noisyHca.port).toBe(1);
    expect(nodes.get(c.uplink.a.node)?.role).toBe('leaf');
    expect(nodes.get(c.uplink.b.node)?.role).toBe('spine');
    expect(nodes.get(c.hostLink.hcaEnd.node)?.role).toBe('gpu-hca');
    expect(nodes.get(c.hostLink.switchEnd.node)?.role).toBe('leaf');
    expect(nodes.get(c.hostLink.hcaEnd.node)?.host).not.toBe(nodes.get(c.noisyHca.node)?.host);
    // The host cable is a real cable of the topology, named from both ends.
    const cable = t.links.find(
      (l) =>
        (l.a.node === c.hostLink.hcaEnd.node && l.b.node === c.hostLink.switchEnd.node) ||
        (l.b.node === c.hostLink.hcaEnd.node && l.a.node === c.hostLink.switchEnd.node),
    );
    expect(cable).toBeDefined();
  });
});

describe('storyScenario()', () => {
  const steps = storyScenario(fabric3);
  const at = (re: RegExp) => steps.filter((s) => re.test(s.say)).map((s) => s.atS);

  it('tells every event within the first three minutes and repairs the 2X link later', () => {
    expect(steps.map((s) => s.atS)).toEqual([...steps.map((s) => s.atS)].sort((a, b) => a - b));
    const burst = at(/symbol errors start/);
    const twoX = at(/trains down to 2X/);
    const flaps = at(/goes down \(flap/);
    const smKill = at(/master subnet manager is killed/);
    const repair = at(/reseated: back to 4X/);
    expect(burst).toHaveLength(1);
    expect(twoX).toHaveLength(1);
    expect(flaps).toHaveLength(3);
    expect(smKill).toHaveLength(1);
    expect(repair).toHaveLength(1);
    // Each shows on the dashboard by its minute: the burst by 1:00, the 2X link and the first flap
    // by 2:00, the failover by 3:00 (a PM sweep is 15 s, a topology scan 20 s, an SM scan 10 s).
    expect(burst[0]! + 15).toBeLessThan(60);
    expect(twoX[0]! + 20 + 10).toBeLessThan(120);
    expect(flaps[0]! + 15).toBeLessThan(120);
    expect(smKill[0]! + 10 + 10).toBeLessThan(180);
    expect(repair[0]!).toBeGreaterThan(smKill[0]! + 60);
  });

  it('names every port with its rack and unit, as a technician looks for it', () => {
    const c = storyCast(fabric3);
    const hca = nodesByName(fabric3).get(c.noisyHca.node)!;
    expect(where(fabric3, c.noisyHca)).toBe(`${hca.name} port 1 (rack ${hca.rack} U${hca.u})`);
    for (const s of steps) expect(s.say).toMatch(/\(rack [A-Z]\d+ U\d+\)|subnet manager/);
  });

  it('is empty for the quiet scenario', () => {
    expect(scenarioSteps('quiet', fabric3)).toEqual([]);
    expect(scenarioSteps('story', fabric3).map((s) => s.say)).toEqual(steps.map((s) => s.say));
  });
});

describe('playScenario()', () => {
  const step = (atS: number, say: string, act: ScenarioStep['act'] = async () => undefined): ScenarioStep => ({
    atS,
    say,
    act,
  });

  it('plays the steps in order at their (compressed) times and prints each with its story time', async () => {
    const lines: string[] = [];
    const done: [string, number][] = [];
    const t0 = Date.now();
    const failed = await playScenario(
      noLab,
      [
        step(0, 'first', async () => void done.push(['first', Date.now() - t0])),
        step(30, 'second', async () => {
          done.push(['second', Date.now() - t0]);
          return 'with a detail';
        }),
      ],
      { log: (l) => lines.push(l), speed: 100, startedAt: t0 },
    );
    expect(failed).toEqual([]);
    expect(done.map(([n]) => n)).toEqual(['first', 'second']);
    // 30 s of story at 100x is 300 ms.
    expect(done[1]![1]).toBeGreaterThanOrEqual(295);
    expect(lines).toEqual([
      '0:00  first',
      expect.stringMatching(/^0:3\d {2}second$/),
      expect.stringMatching(/^0:3\d {2}-> with a detail$/),
    ]);
  });

  it('reports a failed step and goes on with the story', async () => {
    const lines: string[] = [];
    const failed = await playScenario(
      noLab,
      [
        step(0, 'breaks', async () => {
          throw new Error('ibsim said no');
        }),
        step(0, 'still told'),
      ],
      { log: (l) => lines.push(l) },
    );
    expect(failed).toEqual(['breaks']);
    expect(lines).toEqual(['0:00  breaks', '0:00  -> FAILED: ibsim said no', '0:00  still told']);
  });

  it('stops waiting for the next step when its signal aborts', async () => {
    const stop = new AbortController();
    const lines: string[] = [];
    setTimeout(() => stop.abort(), 50);
    const t0 = Date.now();
    await playScenario(noLab, [step(0, 'now'), step(600, 'in ten minutes')], {
      log: (l) => lines.push(l),
      signal: stop.signal,
    });
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(lines).toEqual(['0:00  now']);
  });

  it('formats story time as m:ss', () => {
    expect([0, 5, 65, 600.4].map(clock)).toEqual(['0:00', '0:05', '1:05', '10:00']);
  });
});
