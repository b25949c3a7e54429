import type { Guid } from '@ibwatch/fabric';

/**
 * The names repositories put into named replies: what names.ts's NameBook offers, declared here
 * so that db/ depends on nothing above it (a NameBook is passed in, structurally).
 */
export interface NameLookup {
  /** The mapped name, else the NodeDescription, else the GUID. */
  name(guid: Guid, description: string | null | undefined): string;
  rack(guid: Guid): string | null;
  /** `{guid: [name, rack]}` as JSON: the map handed to SQL that builds named replies. */
  toJson(): string;
}
