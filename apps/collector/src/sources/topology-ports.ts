import { LANE_GBPS, PortIndex, type FabricPort, type LinkSpeed } from '@ibwatch/fabric';
import type { LinkInfoPort } from '@ibwatch/parsers';

const SPEED_BY_LANE = new Map<string, LinkSpeed>(
  Object.entries(LANE_GBPS).map(([s, g]) => [String(g), s as LinkSpeed]),
);

/**
 * The ports of a topology scan: ibnetdiscover's connected ports, with state, width and speed
 * from iblinkinfo folded in one port at a time, as its lines are parsed (at 10k GPUs that is
 * 69k ports: holding iblinkinfo's own records of them until the end was a second copy of the
 * fabric on the heap). Ports only iblinkinfo lists (down ports) come after the others, in its
 * order; a port listed twice keeps its first place and its last record.
 */
export class TopologyPorts {
  private readonly list: FabricPort[] = [];
  private readonly placeOf = new PortIndex<number>();
  private readonly byLid = new Map<number, FabricPort>();

  /** Takes over ibnetdiscover's port records (nothing else holds them: they are not copied). */
  constructor(discovered: readonly FabricPort[]) {
    for (const p of discovered) this.put(p);
    for (const p of this.list) if (p.lid !== undefined) this.byLid.set(p.lid, p);
  }

  private put(p: FabricPort): void {
    const i = this.placeOf.get(p.nodeGuid, p.portNum);
    if (i !== undefined) this.list[i] = p;
    else {
      this.placeOf.set(p.nodeGuid, p.portNum, this.list.length);
      this.list.push(p);
    }
  }

  /** One iblinkinfo port: its own record, and the state of the CA port at the other end. */
  fold(lp: LinkInfoPort): void {
    if (!lp.nodeGuid) return;
    const speedHint = lp.couldBe.map((h) => SPEED_BY_LANE.get(h.replace(/\s*Gbps$/, ''))).find((s) => s !== undefined);
    const i = this.placeOf.get(lp.nodeGuid, lp.portNum);
    const known = i === undefined ? undefined : this.list[i];
    // A new record (Object.assign, not a spread: on Node 20 every object a spread makes in a hot
    // loop gets a hidden class of its own, ~200 bytes more per port). The CA ports `byLid` holds
    // stay the ones ibnetdiscover listed, as before.
    const merged: FabricPort = Object.assign({}, known ?? { nodeGuid: lp.nodeGuid, portNum: lp.portNum }, {
      state: lp.state,
      physState: lp.physState,
      widthActive: lp.widthActive ?? known?.widthActive,
      speedActive: lp.speedActive ?? known?.speedActive,
    });
    // "(Could be 53.125 Gbps)": the port supports a faster speed than it trained to.
    // "Could be 12X" is printed by ibsim on every link and is not used (see link health).
    if (speedHint && merged.speedActive) merged.speedSupported = [merged.speedActive, speedHint];
    this.put(merged);
    // The CA end of the link has the same state; iblinkinfo lists CAs only as peers.
    if (lp.peer && lp.state !== 'Down') {
      const peer = this.byLid.get(lp.peer.lid);
      if (peer && peer.portNum === lp.peer.portNum) {
        peer.state = lp.state;
        peer.physState = lp.physState;
        if (speedHint && peer.speedActive) peer.speedSupported = [peer.speedActive, speedHint];
      }
    }
  }

  /** Every port; one no tool gave a state is taken to be up (ibnetdiscover lists connected ports). */
  finish(): FabricPort[] {
    for (const p of this.list) {
      if (!p.state) {
        p.state = 'Active';
        p.physState = 'LinkUp';
      }
    }
    return this.list;
  }
}
