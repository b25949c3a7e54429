/**
 * Classic vs 64-bit counters. PM_INFO carries both: the 16/32-bit PortCounters columns
 * saturate (`SymbolErrorCounter=65535`, `PortXmitData=4294967295`) while the
 * PortCountersExtended twins keep counting. Both are kept under their own names; readers
 * should prefer the 64-bit twin when the port reports it. Real case (ndr-fat-tree-a,
 * PM_INFO): five CX-7 ports read `SymbolErrorCounter=65535` but `SymbolErrorCounterExt=0`.
 */
import type { CounterTable, PortCounters } from '@ibwatch/fabric';
import { cellValue } from '@ibwatch/fabric';

/** Classic counter name → its 64-bit twin in db_csv PM_INFO. */
export const EXT_TWIN: Record<string, string> = {
  SymbolErrorCounter: 'SymbolErrorCounterExt',
  LinkErrorRecoveryCounter: 'LinkErrorRecoveryCounterExt',
  LinkDownedCounter: 'LinkDownedCounterExt',
  PortRcvErrors: 'PortRcvErrorsExt',
  PortRcvRemotePhysicalErrors: 'PortRcvRemotePhysicalErrorsExt',
  PortRcvSwitchRelayErrors: 'PortRcvSwitchRelayErrorsExt',
  PortXmitDiscards: 'PortXmitDiscardsExt',
  PortXmitConstraintErrors: 'PortXmitConstraintErrorsExt',
  PortRcvConstraintErrors: 'PortRcvConstraintErrorsExt',
  LocalLinkIntegrityErrors: 'LocalLinkIntegrityErrorsExt',
  ExcessiveBufferOverrunErrors: 'ExcessiveBufferOverrunErrorsExt',
  VL15Dropped: 'VL15DroppedExt',
  PortXmitWait: 'PortXmitWaitExt',
  PortXmitData: 'PortXmitDataExtended',
  PortRcvData: 'PortRcvDataExtended',
  PortXmitPkts: 'PortXmitPktsExtended',
  PortRcvPkts: 'PortRcvPktsExtended',
};

/**
 * Value of a counter by its classic name, taken from the 64-bit twin when present: of one
 * record, or of one row of a table (`preferredCounter(snapshot.counters, row, name)`).
 */
export function preferredCounter(pc: PortCounters, classicName: string): bigint | undefined;
export function preferredCounter(table: CounterTable, row: number, classicName: string): bigint | undefined;
export function preferredCounter(a: PortCounters | CounterTable, b: number | string, c?: string): bigint | undefined {
  if (typeof b === 'string') {
    const pc = a as PortCounters;
    const twin = EXT_TWIN[b];
    return (twin !== undefined ? pc.counters[twin] : undefined) ?? pc.counters[b];
  }
  const t = a as CounterTable;
  const cell = (name: string | undefined): bigint | undefined => {
    const col = name === undefined ? undefined : t.columns.find((x) => x.name === name);
    return col === undefined ? undefined : cellValue(col, b);
  };
  return cell(EXT_TWIN[c!]) ?? cell(c);
}
