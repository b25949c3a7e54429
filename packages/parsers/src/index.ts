export { ParseError, type ParseErrorInit } from './common/parse-error.ts';
export * from './nccl/index.ts';
// ibdiagnet2 output directory
export {
  readIbdiagnetRun,
  type IbdiagnetFiles,
  type IbdiagnetRunOptions,
} from './ibdiagnet/run-reader.ts';
export { parseIbdiagnetFiles, type IbdiagnetTexts } from './ibdiagnet/parse-files.ts';
export { buildIbdiagnetSnapshot, type IbdiagnetParsed, type SnapshotOptions } from './ibdiagnet/snapshot.ts';
export { parseDbCsv, parseDbCsvAsync, DbCsvParser, type DbCsvOptions } from './ibdiagnet/db-csv.ts';
export type { DbCsvData, DbCsvSectionInfo, IbdiagFinding, IbdiagSmInfo } from './ibdiagnet/db-csv-types.ts';
export {
  parseNetDump,
  NetDumpParser,
  type NetDumpData,
  type NetDumpPort,
  type NetDumpSwitch,
} from './ibdiagnet/net-dump.ts';
export { parsePm, PmParser, PM_NAME_TO_COLUMN, type PmData, type PmPortBlock } from './ibdiagnet/pm.ts';
export { parseSm, SmParser, type SmReport, type SmReportEntry } from './ibdiagnet/sm.ts';
export {
  parseIbdiagnetLog,
  LogParser,
  type IbdiagnetLog,
  type LogMessage,
  type LogCheck,
  type LogStageSummary,
} from './ibdiagnet/log.ts';
export { parseCables, CablesParser, toCableInfo, type CablesData, type CableBlock } from './ibdiagnet/cables.ts';
export { parseLst, LstParser, type LstData, type LstLink, type LstEnd } from './ibdiagnet/lst.ts';
export { decodeSpeedActive, decodeSpeedSet, decodeWidthActive, decodeWidthSet } from './ibdiagnet/speed-bits.ts';
export { preferredCounter, EXT_TWIN } from './ibdiagnet/counters.ts';
export {
  runLineParser,
  runLineParserAsync,
  runLineParserChunks,
  ByteLineSplitter,
  ChunkLineSplitter,
  MAX_LINE_BYTES,
  type LineParser,
  type LineSource,
} from './common/line-runner.ts';
export { decodeUtf8, type TextOrBytes } from './common/bytes.ts';
export { GuidTable } from './common/guids.ts';
// infiniband-diags tools (src/diags/)
export { IBQE_ERROR_MODE_COUNTERS } from './diags/ibqueryerrors-grammar.ts';
export {
  parseIbqueryerrors,
  createIbqueryerrorsParser,
  ibqePortCounters,
  type IbqueryerrorsResult,
  type IbqueryerrorsOptions,
  type IbqePort,
  type IbqeSummary,
} from './diags/ibqueryerrors.ts';
export {
  ibqueryerrorsTable,
  type IbqueryerrorsTable,
  type IbqueryerrorsTableOptions,
} from './diags/ibqueryerrors-table.ts';
export { IbqueryerrorsTableStream } from './diags/ibqueryerrors-table-stream.ts';
export {
  parseIblinkinfo,
  createIblinkinfoParser,
  type IblinkinfoOptions,
  type IblinkinfoResult,
  type LinkInfoPort,
  type LidLink,
} from './diags/iblinkinfo.ts';
export { parseLinkLine, type LinkLine, type LinkPeer } from './diags/link-line.ts';
export { parseSminfo, createSminfoParser, smStateFromNumber } from './diags/sminfo.ts';
export { parseSaquerySmir, createSaquerySmirParser } from './diags/saquery.ts';
export {
  parseIbnetdiscoverPorts,
  createIbnetdiscoverPortsParser,
  type IbnetdiscoverPortsResult,
  type IbnetdiscoverPortEntry,
  type PortEnd,
  type PortGuidLink,
  type DiagsNodeKind,
} from './diags/ibnetdiscover-ports.ts';
export { parseIbnetdiscover, createIbnetdiscoverParser, type IbnetdiscoverResult } from './diags/ibnetdiscover.ts';
export {
  parsePerfquery,
  createPerfqueryParser,
  perfqueryPortCounters,
  type PerfqueryBlock,
} from './diags/perfquery.ts';
export { parseIbstat, createIbstatParser, type HcaPortStatus, type IbstatResult } from './diags/ibstat.ts';
export { detectDiagsFormat, DIAGS_FORMATS, type DiagsFormat } from './diags/detect.ts';
// OpenSM (src/opensm/) and the node-name map
export {
  parseOpensmLog,
  cutAt,
  createOpensmLogParser,
  type OpensmEvent,
  type OpensmEventKind,
  type OpensmLogResult,
  type OpensmLogOptions,
} from './opensm/log.ts';
export {
  parseNodeNameMap,
  createNodeNameMapParser,
  formatNodeNameMapLine,
  type NodeNameEntry,
} from './node-name-map.ts';
// Slurm (src/slurm/): squeue --json and hostlist expressions, for the blast radius
export * from './slurm/index.ts';
