import { readFileSync } from 'node:fs';
import type { Guid } from '@ibwatch/fabric';

export interface NameEntry {
  name: string;
  rack: string | null;
  /** Rack unit (`# rack=R07 u=12`). */
  u?: number | null;
}

/**
 * GUID -> human name and rack location. Names come from the node-name map when one is
 * configured (the infiniband-diags `--node-name-map` format), else from the NodeDescription
 * the fabric reports.
 */
export class NameBook {
  constructor(private readonly map: Map<Guid, NameEntry> = new Map()) {}

  static fromMap(entries: Iterable<[Guid, NameEntry]>): NameBook {
    return new NameBook(new Map(entries));
  }

  name(guid: Guid, description: string | null | undefined): string {
    return this.map.get(guid)?.name ?? (description || guid);
  }

  /** The mapped name only (no fallback to a description). */
  nameOrNull(guid: Guid): string | null {
    return this.map.get(guid)?.name ?? null;
  }

  rack(guid: Guid): string | null {
    return this.map.get(guid)?.rack ?? null;
  }

  /** Rack unit of the node (`u=` in the map's comment), for the worklist's walking order. */
  u(guid: Guid): number | null {
    return this.map.get(guid)?.u ?? null;
  }

  get size(): number {
    return this.map.size;
  }

  /** `{guid: [name, rack]}` as JSON: the map handed to SQL that builds named replies. */
  toJson(): string {
    const o: Record<string, [string, string | null]> = {};
    for (const [g, e] of this.map) o[g] = [e.name, e.rack];
    return JSON.stringify(o);
  }
}

export function readTextFile(file: string): string {
  return readFileSync(file, 'utf8');
}

/** `dgx-0042` of `dgx-0042 mlx5_3`: the host part of an HCA's NodeDescription (see `hcaHost`). */
export { hcaHost as hostOf } from '@ibwatch/fabric';
