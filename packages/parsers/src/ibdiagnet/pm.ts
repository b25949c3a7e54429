/**
 * ibdiagnet2.pm: the same counters as db_csv PM_INFO, one block per port, all values hex:
 *
 *   -------------------------------------------------------
 *   Port=1 Lid=0x00b4 GUID=0xb0cf0e0300d33fc0 Device=54002 Port Name=ib-switch-sequoia/U1/P1/1/1
 *   -------------------------------------------------------
 *   link_down_counter=0x00000000
 *   port_xmit_data_extended=0x00000045a9712343
 *   port_looping_errors=NA
 *
 * Used only when the db_csv has no PM_INFO. Names are mapped to the PM_INFO column names so
 * both sources give identical records; unknown names are kept as written.
 */
import type { Guid, ParseResult } from '@ibwatch/fabric';
import { runLineParser } from '../common/line-runner.ts';
import type { LineParser, LineSource } from '../common/line-runner.ts';
import { TextDump } from './text-dump.ts';
import { parseGuidField } from '../common/guids.ts';
import { parseCounter, parseIntField } from './values.ts';
import type { DumpHeader } from './values.ts';

export const PM_FORMAT = 'ibdiagnet2.pm';

/** `.pm` key → db_csv PM_INFO column. */
export const PM_NAME_TO_COLUMN: Record<string, string> = {
  link_down_counter: 'LinkDownedCounter',
  link_error_recovery_counter: 'LinkErrorRecoveryCounter',
  symbol_error_counter: 'SymbolErrorCounter',
  port_rcv_remote_physical_errors: 'PortRcvRemotePhysicalErrors',
  port_rcv_errors: 'PortRcvErrors',
  port_xmit_discard: 'PortXmitDiscards',
  port_rcv_switch_relay_errors: 'PortRcvSwitchRelayErrors',
  excessive_buffer_errors: 'ExcessiveBufferOverrunErrors',
  local_link_integrity_errors: 'LocalLinkIntegrityErrors',
  port_rcv_constraint_errors: 'PortRcvConstraintErrors',
  port_xmit_constraint_errors: 'PortXmitConstraintErrors',
  vl15_dropped: 'VL15Dropped',
  port_xmit_data: 'PortXmitData',
  port_rcv_data: 'PortRcvData',
  port_xmit_pkts: 'PortXmitPkts',
  port_rcv_pkts: 'PortRcvPkts',
  port_xmit_wait: 'PortXmitWait',
  port_xmit_data_extended: 'PortXmitDataExtended',
  port_rcv_data_extended: 'PortRcvDataExtended',
  port_xmit_pkts_extended: 'PortXmitPktsExtended',
  port_rcv_pkts_extended: 'PortRcvPktsExtended',
  port_unicast_xmit_pkts: 'PortUniCastXmitPkts',
  port_unicast_rcv_pkts: 'PortUniCastRcvPkts',
  port_multicast_xmit_pkts: 'PortMultiCastXmitPkts',
  port_multicast_rcv_pkts: 'PortMultiCastRcvPkts',
  symbol_error_counter_extended: 'SymbolErrorCounterExt',
  link_error_recovery_counter_extended: 'LinkErrorRecoveryCounterExt',
  link_downed_counter_extended: 'LinkDownedCounterExt',
  port_rcv_errors_extended: 'PortRcvErrorsExt',
  port_rcv_remote_physical_errors_extended: 'PortRcvRemotePhysicalErrorsExt',
  port_rcv_switch_relay_errors_extended: 'PortRcvSwitchRelayErrorsExt',
  port_xmit_discards_extended: 'PortXmitDiscardsExt',
  port_xmit_constraint_errors_extended: 'PortXmitConstraintErrorsExt',
  port_rcv_constraint_errors_extended: 'PortRcvConstraintErrorsExt',
  local_link_integrity_errors_extended: 'LocalLinkIntegrityErrorsExt',
  excessive_buffer_overrun_errors_extended: 'ExcessiveBufferOverrunErrorsExt',
  vl15_dropped_extended: 'VL15DroppedExt',
  port_xmit_wait_extended: 'PortXmitWaitExt',
  qp1_dropped_extended: 'QP1DroppedExt',
  port_local_physical_errors: 'PortLocalPhysicalErrors',
  port_malformed_packet_errors: 'PortMalformedPacketErrors',
  port_buffer_overrun_errors: 'PortBufferOverrunErrors',
  port_dlid_mapping_errors: 'PortDLIDMappingErrors',
  port_vl_mapping_errors: 'PortVLMappingErrors',
  port_looping_errors: 'PortLoopingErrors',
  port_inactive_discards: 'PortInactiveDiscards',
  port_neighbor_mtu_discards: 'PortNeighborMTUDiscards',
  port_sw_lifetime_limit_discards: 'PortSwLifetimeLimitDiscards',
  port_sw_hoq_lifetime_limit_discards: 'PortSwHOQLifetimeLimitDiscards',
};

export interface PmPortBlock {
  /** `GUID=`: the node GUID for switch ports, the port GUID for CA ports. */
  guid: Guid;
  portNum: number;
  lid?: number;
  deviceId?: number;
  portName?: string;
  counters: Record<string, bigint>;
}

export interface PmData {
  header: DumpHeader;
  ports: PmPortBlock[];
}

const BLOCK = /^Port=(\d+)\s+Lid=(\S+)\s+GUID=(\S+)(?:\s+Device=(\d+))?(?:\s+Port Name=(.*))?$/;

/** Line-at-a-time .pm parser. */
export class PmParser implements LineParser<PmData> {
  private readonly t: TextDump;
  private readonly ports: PmPortBlock[] = [];
  private current: PmPortBlock | undefined;

  constructor(options: { file?: string } = {}) {
    this.t = new TextDump(PM_FORMAT, options.file);
  }

  feed(line: string): void {
    if (this.t.pre(line) || line.startsWith('---')) return;
    const eq = line.indexOf('=');
    if (line.startsWith('Port=')) {
      const m = BLOCK.exec(line);
      const guid = m ? parseGuidField(m[3]) : undefined;
      if (!m || !guid) {
        this.current = undefined;
        return this.t.warn('bad port block header');
      }
      this.current = { guid, portNum: Number(m[1]), lid: parseIntField(m[2]), counters: {} };
      if (m[4]) this.current.deviceId = Number(m[4]);
      if (m[5]) this.current.portName = m[5].trim();
      this.ports.push(this.current);
      return;
    }
    if (eq <= 0 || !this.current) return this.t.warn('line outside a port block ignored');
    const key = line.slice(0, eq).trim();
    const v = parseCounter(line.slice(eq + 1));
    if (typeof v === 'string') return this.t.warn(`${key}: ${v}`);
    if (v !== null) this.current.counters[PM_NAME_TO_COLUMN[key] ?? key] = v;
  }

  /** A line too long to keep (see `LineParser.skipLine`). */
  skipLine(head: string): void {
    this.t.skipped(head);
  }

  finish(): ParseResult<PmData> {
    this.t.finishChecks();
    return { value: { header: this.t.header, ports: this.ports }, warnings: this.t.warnings };
  }
}

/** Parse a whole .pm given as text or lines. */
export function parsePm(input: LineSource, options?: { file?: string }): ParseResult<PmData> {
  return runLineParser(new PmParser(options), input);
}
