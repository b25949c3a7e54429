/**
 * Domain types shared by every ibwatch package: what a fabric scan produces, whatever tool it
 * came from. Parsers (packages/parsers) produce these; analysis (this package) and the collector
 * consume them; the web app imports them for API shapes.
 *
 * Conventions:
 * - GUIDs are always canonical: `0x` + 16 lowercase hex digits (see `normalizeGuid`).
 * - Counters are exact 64-bit values: the PortCountersExtended values exceed 2^53 on busy ports
 *   (PortXmitData of a 400G port passes 2^53 4-byte words in about 2 months). A whole sweep is a
 *   `CounterTable` (two 32-bit halves per cell, see counter-table.ts); one port is a
 *   `PortCounters` record of `bigint`s.
 * - Data counters (PortXmitData/PortRcvData and their Ext twins) count 4-byte words, as the
 *   IBTA spec and the tools define them; multiply by 4 for bytes.
 * - Speeds and widths are spelled as the tools spell them (`HDR`, `NDR`, `4X`).
 */

/** Canonical GUID: `0x` + 16 lowercase hex digits. */
export type Guid = string;

export type NodeType = 'switch' | 'ca' | 'router';

/** Logical port state (PortInfo.PortState). */
export type PortState = 'Down' | 'Initialize' | 'Armed' | 'Active' | 'Unknown';

/** Physical port state (PortInfo.PortPhysicalState). */
export type PhysState =
  | 'NoStateChange'
  | 'Sleep'
  | 'Polling'
  | 'Disabled'
  | 'PortConfigurationTraining'
  | 'LinkUp'
  | 'LinkErrorRecovery'
  | 'PhyTest'
  | 'Unknown';

export type LinkWidth = '1X' | '2X' | '4X' | '8X' | '12X';

export type LinkSpeed = 'SDR' | 'DDR' | 'QDR' | 'FDR10' | 'FDR' | 'EDR' | 'HDR' | 'NDR' | 'XDR';

/** Reference to one port of one node. */
export interface PortRef {
  nodeGuid: Guid;
  portNum: number;
}

export interface FabricNode {
  guid: Guid;
  type: NodeType;
  /** NodeDescription as the fabric reports it, e.g. `dgx-0042 mlx5_3` or `leaf-r3-07`. */
  description: string;
  numPorts: number;
  systemImageGuid?: Guid;
  vendorId?: number;
  deviceId?: number;
  /** Switch LID (port 0); CAs have LIDs per port. */
  lid?: number;
  /** Chip temperature in °C when the scan read it (ibdiagnet TEMP_SENSING). */
  temperatureC?: number;
}

export interface FabricPort extends PortRef {
  portGuid?: Guid;
  lid?: number;
  state?: PortState;
  physState?: PhysState;
  widthActive?: LinkWidth;
  speedActive?: LinkSpeed;
  widthEnabled?: LinkWidth[];
  widthSupported?: LinkWidth[];
  speedEnabled?: LinkSpeed[];
  speedSupported?: LinkSpeed[];
  /** Front-panel label when the tool prints one (`1/17/2` on Quantum-2, ibdiagnet .net_dump). */
  label?: string;
}

/** A physical link: two port ends. `a` is the end with the lower (nodeGuid, portNum). */
export interface FabricLink {
  a: PortRef;
  b: PortRef;
}

/** Counter name as the tools spell it (`SymbolErrorCounter`, `PortXmitDataExt`, ...). */
export type CounterName = string;

export interface PortCounters extends PortRef {
  counters: Record<CounterName, bigint>;
  /**
   * True when the values came from PortCountersExtended under the classic names, as
   * `perfquery -x` prints them (`PortXmitData:....36298026860928`, `SymbolErrorCounter:...0`):
   * every counter of the record is then 64-bit, whatever its name. Analysis also treats a
   * classic name as 64-bit when a value exceeds the classic width.
   */
  extended?: boolean;
}

export type SmState = 'MASTER' | 'STANDBY' | 'DISCOVERING' | 'NOTACTIVE' | 'UNKNOWN';

export interface SmObservation {
  guid: Guid;
  lid?: number;
  priority: number;
  state: SmState;
  activityCount?: bigint;
  /** Node description of the SM's host port when known. */
  nodeDescription?: string;
  /** Number of the SM's port on that node when known (1 on an HCA, 0 on a switch). */
  portNum?: number;
}

export interface CableInfo extends PortRef {
  vendor?: string;
  partNumber?: string;
  serialNumber?: string;
  lengthM?: number;
  type?: string;
  temperatureC?: number;
}

/**
 * Firmware of one node as ibdiagnet read it: db_csv NODES_INFO (vendor-specific GeneralInfo:
 * version, PSID, device, hardware revision) or, for nodes it lacks, GENERAL_INFO_SMP (version only).
 */
export interface NodeFirmware {
  nodeGuid: Guid;
  /** `31.2012.1024`: FWInfo_Extended_Major.Minor.SubMinor in decimal (`0x1f.0x7dc.0x400`). */
  version: string;
  /** Parameter-Set ID, which board build of the firmware the node runs (`MT_0000000579`). */
  psid?: string;
  /** HWInfo_DeviceID (`0xd2f2` = 54002, Quantum-2). */
  deviceId?: number;
  /** HWInfo_DeviceHWRevision (`0x00a0`). */
  hwRevision?: number;
}

/**
 * One of ibdiagnet's checks and how it ended (`-W- FW Check finished with warnings` in the log,
 * or a `WARNINGS_FW_CHECK` section in db_csv). `check` is the db_csv spelling: upper case,
 * words joined by `_` (`FW_CHECK`, `DUPLICATED_NODE_DESCRIPTION_DETECTION`).
 */
export interface ToolCheck {
  check: string;
  result: 'ok' | 'warnings' | 'errors' | 'skipped';
}

export interface FabricSnapshot {
  source: 'ibdiagnet' | 'diags';
  /** ISO-8601 time the tool ran (ibdiagnet's `Running timestamp`), when known. */
  takenAt?: string;
  nodes: FabricNode[];
  ports: FabricPort[];
  links: FabricLink[];
  /**
   * Lifetime counter values per port, one table row per port (see counter-table.ts: a
   * 10k-GPU fabric's ~69k ports x 20-50 counters as records cost more than parsing them).
   * `tableRow` / `tableToPortCounters` give records where one is needed.
   */
  counters: CounterTable;
  /** Counter increase over a known interval (ibdiagnet's PM_DELTA), when present. */
  counterDeltas?: { intervalSeconds?: number; ports: CounterTable };
  sms: SmObservation[];
  cables: CableInfo[];
  /** Tool-reported problems (ibdiagnet -W-/-E- lines, WARNINGS_/ERRORS_ sections). */
  toolFindings: {
    severity: 'warning' | 'error';
    text: string;
    scope?: string;
    port?: PortRef;
    /** Node the finding is about when it names one but no port (ibdiagnet Scope NODE). */
    nodeGuid?: Guid;
    /** Machine-readable event name, e.g. `NODE_WRONG_FW_VERSION`. */
    code?: string;
    /** The check that reported it, e.g. `FW_CHECK` (db_csv section suffix) or a log stage. */
    check?: string;
  }[];
  /** The checks the tool ran or skipped (ibdiagnet), so that a clean check can clear its findings. */
  toolChecks?: ToolCheck[];
  /** Node firmware, when the tool read it (ibdiagnet NODES_INFO / GENERAL_INFO_SMP). */
  firmware?: NodeFirmware[];
  meta: Record<string, string>;
}

/** Parser output: a value plus non-fatal remarks with their line numbers. */
export interface ParseWarning {
  line?: number;
  message: string;
  file?: string;
}

export interface ParseResult<T> {
  value: T;
  warnings: ParseWarning[];
}

/** Counter values per port, column by column (counter-table.ts has the functions that read them). */
export interface CounterColumn {
  /** Counter name as the tool spells it (`SymbolErrorCounter`, `PortXmitDataExtended`). */
  name: CounterName;
  hi: Uint32Array;
  lo: Uint32Array;
  /**
   * 1 for each row whose cell is absent (both halves then 0); undefined when every cell of the
   * column has a value (the common case: nothing to allocate or check).
   */
  absent?: Uint8Array;
}

export interface CounterTable {
  rows: number;
  /** Canonical node GUID of each row. */
  nodeGuids: Guid[];
  portNums: Uint16Array;
  /** Per row, 1 when classic names carry 64-bit values (`perfquery -x`); see {@link PortCounters.extended}. */
  extended?: Uint8Array;
  columns: CounterColumn[];
}
