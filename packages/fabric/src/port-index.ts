import type { Guid } from './types.ts';

/**
 * Values keyed by port (node GUID and port number), held per node in an array indexed by port
 * number. A Map keyed by `guid/port` strings costs a string per key (and a flattened copy of it
 * once hashed) and a hash table that is reallocated as it grows: at 69k ports, tens of MB that
 * outlive the young generation and swell the heap of a topology scan (pnpm bench, serve stage).
 */
export class PortIndex<T> {
  private readonly byNode = new Map<Guid, (T | undefined)[]>();

  get(nodeGuid: Guid, portNum: number): T | undefined {
    return this.byNode.get(nodeGuid)?.[portNum];
  }

  set(nodeGuid: Guid, portNum: number, value: T): void {
    let ports = this.byNode.get(nodeGuid);
    if (!ports) this.byNode.set(nodeGuid, (ports = []));
    ports[portNum] = value;
  }
}
