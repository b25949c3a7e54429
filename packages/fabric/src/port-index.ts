import type { Guid } from './types.ts';

/**
 * Values keyed by port (node GUID and port number), held per node in an array indexed by port
 * number. A Map keyed by `guid/port` strings costs a string per key (and a flattened copy of it
 * once hashed) and a hash table that is reallocated as it grows: at 69k ports, tens of MB that
 * outlive the young generation and swell the heap of a topology scan (pnpm bench, serve stage).
 * The last node's array is kept at hand: tool outputs list a node's ports together, so 272k
 * ports at 45k GPUs need ~49k look-ups by GUID, not 272k.
 */
export class PortIndex<T> {
  private readonly byNode = new Map<Guid, (T | undefined)[]>();
  private lastGuid: Guid | undefined;
  private lastPorts: (T | undefined)[] = [];

  /** Node `nodeGuid`'s values by port number (the index's own array), undefined when it has none. */
  portsOf(nodeGuid: Guid): (T | undefined)[] | undefined {
    if (nodeGuid === this.lastGuid) return this.lastPorts;
    const ports = this.byNode.get(nodeGuid);
    if (ports !== undefined) {
      this.lastGuid = nodeGuid;
      this.lastPorts = ports;
    }
    return ports;
  }

  /** As `portsOf`, made empty on first use: set a port by writing its slot. */
  slotsOf(nodeGuid: Guid): (T | undefined)[] {
    let ports = this.portsOf(nodeGuid);
    if (ports === undefined) {
      this.byNode.set(nodeGuid, (ports = []));
      this.lastGuid = nodeGuid;
      this.lastPorts = ports;
    }
    return ports;
  }

  get(nodeGuid: Guid, portNum: number): T | undefined {
    return this.portsOf(nodeGuid)?.[portNum];
  }

  set(nodeGuid: Guid, portNum: number, value: T): void {
    this.slotsOf(nodeGuid)[portNum] = value;
  }
}
