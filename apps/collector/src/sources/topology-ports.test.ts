import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANE_GBPS, type FabricPort, type LinkSpeed } from '@ibwatch/fabric';
import { parseIblinkinfo, parseIbnetdiscover, type LinkInfoPort } from '@ibwatch/parsers';
import { REPO_ROOT } from '../test-support.ts';
import { TopologyPorts } from './topology-ports.ts';

const lab = (name: string) => readFileSync(join(REPO_ROOT, 'packages/parsers/fixtures/diags', name), 'utf8');
const SPEED_BY_LANE = new Map<string, LinkSpeed>(
  Object.entries(LANE_GBPS).map(([s, g]) => [String(g), s as LinkSpeed]),
);

/** The merge as it was written before ports were folded in one at a time: the reference. */
function mergedAtOnce(discovered: FabricPort[], linkInfo: LinkInfoPort[]): FabricPort[] {
  const ports = new Map<string, FabricPort>(discovered.map((p) => [`${p.nodeGuid}:${p.portNum}`, { ...p }]));
  const byLid = new Map<number, FabricPort>();
  for (const p of ports.values()) if (p.lid !== undefined) byLid.set(p.lid, p);
  for (const lp of linkInfo) {
    if (!lp.nodeGuid) continue;
    const key = `${lp.nodeGuid}:${lp.portNum}`;
    const speedHint = lp.couldBe.map((h) => SPEED_BY_LANE.get(h.replace(/\s*Gbps$/, ''))).find((s) => s !== undefined);
    const known = ports.get(key);
    const merged: FabricPort = {
      ...(known ?? { nodeGuid: lp.nodeGuid, portNum: lp.portNum }),
      state: lp.state,
      physState: lp.physState,
      widthActive: lp.widthActive ?? known?.widthActive,
      speedActive: lp.speedActive ?? known?.speedActive,
    };
    if (speedHint && merged.speedActive) merged.speedSupported = [merged.speedActive, speedHint];
    ports.set(key, merged);
    if (lp.peer && lp.state !== 'Down') {
      const peer = byLid.get(lp.peer.lid);
      if (peer && peer.portNum === lp.peer.portNum) {
        peer.state = lp.state;
        peer.physState = lp.physState;
        if (speedHint && peer.speedActive) peer.speedSupported = [peer.speedActive, speedHint];
      }
    }
  }
  for (const p of ports.values()) if (!p.state) Object.assign(p, { state: 'Active', physState: 'LinkUp' });
  return [...ports.values()];
}

function folded(discovered: FabricPort[], linkInfoText: string): FabricPort[] {
  const ports = new TopologyPorts(discovered);
  parseIblinkinfo(linkInfoText, { onPort: (lp) => ports.fold(lp) });
  return ports.finish();
}

describe('TopologyPorts', () => {
  it('gives the lab fabric the ports the all-at-once merge gave, in the same order with the same fields', () => {
    const disc = () => parseIbnetdiscover(lab('lab-ibnetdiscover.txt')).value.ports;
    for (const text of [lab('lab-iblinkinfo.txt'), lab('lab-iblinkinfo-l.txt')]) {
      const want = mergedAtOnce(disc(), parseIblinkinfo(text).value.ports);
      const got = folded(disc(), text);
      expect(got).toStrictEqual(want);
      expect(JSON.stringify(got)).toBe(JSON.stringify(want));
    }
    const ports = folded(disc(), lab('lab-iblinkinfo.txt'));
    expect(ports.filter((p) => p.state === 'Down').length).toBeGreaterThan(0);
  });

  it('keeps a port listed twice in its first place with its last record; ports only iblinkinfo lists come last', () => {
    const discovered: FabricPort[] = [
      { nodeGuid: '0xa', portNum: 1, lid: 1 },
      { nodeGuid: '0xb', portNum: 1, lid: 2 },
      { nodeGuid: '0xa', portNum: 1, lid: 3 },
    ];
    const down: LinkInfoPort = {
      nodeGuid: '0xc',
      portNum: 7,
      lid: 9,
      nodeDescription: 'c',
      state: 'Down',
      physState: 'Polling',
      couldBe: [],
    };
    const ports = new TopologyPorts(discovered.map((p) => ({ ...p })));
    ports.fold(down);
    expect(ports.finish()).toStrictEqual(mergedAtOnce(discovered, [down]));
    expect(ports.finish().map((p) => `${p.nodeGuid}:${p.portNum}:${p.lid ?? ''}`)).toEqual([
      '0xa:1:3',
      '0xb:1:2',
      '0xc:7:',
    ]);
  });
});
