/** Value types produced by the ibdiagnet2 parsers. */
import type {
  CableInfo,
  CounterTable,
  FabricLink,
  FabricNode,
  FabricPort,
  Guid,
  NodeFirmware,
  PortRef,
  SmState,
} from '@ibwatch/fabric';

/** One row of a db_csv WARNINGS_<CHECK> / ERRORS_<CHECK> section. */
export interface IbdiagFinding {
  severity: 'warning' | 'error';
  /** Section suffix: `FW_CHECK` for `START_WARNINGS_FW_CHECK`. */
  check: string;
  /** `NODE`, `PORT` or `CLUSTER`. */
  scope?: string;
  nodeGuid?: Guid;
  port?: PortRef;
  /** EventName, e.g. `NODE_DUPLICATED_NODE_DESC`. */
  code?: string;
  /** Summary (ibdiagnet replaces commas by `-` in it). */
  text: string;
  line: number;
}

/** One SM_INFO row. */
export interface IbdiagSmInfo {
  nodeGuid?: Guid;
  portGuid?: Guid;
  portNum?: number;
  /** SMInfo.GUID: the SM's port GUID. */
  guid: Guid;
  priority: number;
  state: SmState;
  activityCount?: bigint;
}

/** Where a section was found and how many rows it held. */
export interface DbCsvSectionInfo {
  name: string;
  startLine: number;
  endLine: number;
  /** Data rows (header excluded), whether or not this parser interprets the section. */
  rows: number;
}

/** Everything `parseDbCsv` reads from an ibdiagnet2.db_csv. Absent sections give empty lists. */
export interface DbCsvData {
  /** RUN_INFO columns of its (single) row, e.g. `Date`, `IBDIAGNET_Version`, `Args`. */
  runInfo: Record<string, string>;
  /** RUN_INFO `Date` as written: `2025-03-31 23:43:18 UTC +0000`. */
  runTimestamp?: string;
  nodes: FabricNode[];
  ports: FabricPort[];
  links: FabricLink[];
  /**
   * PM_INFO: counters since last clear, one row per port, every column kept under its own name
   * (classic and `*Ext`/`*Extended` twins side by side; see counters.ts). A {@link CounterTable}
   * rather than records: see db-csv-pm.ts. Empty (0 rows) when the section is absent.
   */
  pmInfo: CounterTable;
  /** PM_DELTA: second sample minus first, same layout. */
  pmDelta: CounterTable;
  sms: IbdiagSmInfo[];
  cables: CableInfo[];
  findings: IbdiagFinding[];
  temperatures: { nodeGuid: Guid; temperatureC: number }[];
  /** NODES_INFO and GENERAL_INFO_SMP rows with a version, in file order (see db-csv-firmware.ts). */
  firmware: (NodeFirmware & { source: 'NODES_INFO' | 'GENERAL_INFO_SMP' })[];
  sections: DbCsvSectionInfo[];
  /**
   * INDEX_TABLE rows (`Name, Offset, Size, Line, Rows`): the sections ibdiagnet wrote, which a
   * file cut short or edited may lack. Empty when the file has no INDEX_TABLE.
   */
  index: { name: string; line?: number; rows?: number }[];
  /** Line of the INDEX_TABLE according to the file's first line (`# INDEX_TABLE offset: ..., line: 6214`). */
  indexLine?: number;
}
