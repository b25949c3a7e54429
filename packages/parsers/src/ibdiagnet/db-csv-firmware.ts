/**
 * Firmware sections of db_csv. Both give the version as three hex cells, read as decimal
 * `major.minor.subminor` (`0x0000001f,0x000007dc,0x00000400` = `31.2012.1024`):
 *
 * - NODES_INFO (vendor-specific GeneralInfo GMP, `--skip nodes_info` drops it): one row per node
 *   that answered, with PSID, device ID and hardware revision —
 *   `NodeGUID,HWInfo_DeviceID,HWInfo_DeviceHWRevision,...,FWInfo_SubMinor,FWInfo_Minor,FWInfo_Major,
 *   ...,FWInfo_PSID,...,FWInfo_Extended_Major,FWInfo_Extended_Minor,FWInfo_Extended_SubMinor,...`
 *   SHARP Aggregation Nodes do not answer it (`No response for MAD VSGeneralInfo, status = 4`).
 * - GENERAL_INFO_SMP (the same over SMPs, every node): the version only —
 *   `NodeGUID,FWInfo_Extended_Major,FWInfo_Extended_Minor,FWInfo_Extended_SubMinor,CapabilityMask_0,...`
 *
 * Old firmware leaves the Extended fields 0 and fills FWInfo_Major/Minor/SubMinor instead; a row
 * with no version at all (every field 0 or `N/A`) is kept out.
 */
import type { DbCsvData } from './db-csv-types.ts';
import { AsciiInterner, printableAscii } from '../common/bytes.ts';
import type { CsvRow } from './csv.ts';
import type { GuidTable } from '../common/guids.ts';
import { guidCell, indexer, intCell, missing, show, type SectionReader } from './db-csv-cells.ts';

type Source = 'NODES_INFO' | 'GENERAL_INFO_SMP';

/** A text cell that repeats (the PSID: a handful of values on 11k rows at 10k GPUs), decoded once. */
function textCell(r: CsvRow, i: number, texts: AsciiInterner): string | undefined {
  if (i < 0 || i >= r.count) return undefined;
  const s = r.starts[i]!;
  const e = r.ends[i]!;
  return r.plain(i) && printableAscii(r.bytes, s, e) ? texts.get(r.bytes, s, e) : r.text(i);
}

/**
 * `31.2012.1024` from three cells, or undefined when all are 0 or unreadable. One string per
 * distinct version (`versions`): a fabric runs a handful, on 98k rows at 45k GPUs.
 */
function version(r: CsvRow, cols: [number, number, number], versions: Versions): string | undefined {
  const major = intCell(r, cols[0]);
  const minor = intCell(r, cols[1]);
  const sub = intCell(r, cols[2]);
  if (major === undefined || minor === undefined || sub === undefined) return undefined;
  if (major === 0 && minor === 0 && sub === 0) return undefined;
  return versions.of(major, minor, sub);
}

/** Version strings by their three numbers. */
class Versions {
  private readonly byMajor = new Map<number, Map<number, Map<number, string>>>();

  of(major: number, minor: number, sub: number): string {
    let byMinor = this.byMajor.get(major);
    if (byMinor === undefined) this.byMajor.set(major, (byMinor = new Map()));
    let bySub = byMinor.get(minor);
    if (bySub === undefined) byMinor.set(minor, (bySub = new Map()));
    let v = bySub.get(sub);
    if (v === undefined) bySub.set(sub, (v = `${major}.${minor}.${sub}`));
    return v;
  }
}

/** The reader of NODES_INFO or GENERAL_INFO_SMP: rows go to `data.firmware` with their source. */
export function firmwareReader(data: DbCsvData, guids: GuidTable, source: Source): SectionReader {
  let c = { guid: -1, device: -1, hw: -1, psid: -1 };
  let extended: [number, number, number] = [-1, -1, -1];
  let classic: [number, number, number] = [-1, -1, -1];
  const texts = new AsciiInterner();
  const versions = new Versions();
  return {
    header(names) {
      const ix = indexer(names);
      c = {
        guid: ix('NodeGUID'),
        device: ix('HWInfo_DeviceID'),
        hw: ix('HWInfo_DeviceHWRevision'),
        psid: ix('FWInfo_PSID'),
      };
      extended = [ix('FWInfo_Extended_Major'), ix('FWInfo_Extended_Minor'), ix('FWInfo_Extended_SubMinor')];
      classic = [ix('FWInfo_Major'), ix('FWInfo_Minor'), ix('FWInfo_SubMinor')];
      const absent = extended.every((i) => i < 0) && classic.every((i) => i < 0) ? -1 : 0;
      return missing({ NodeGUID: c.guid, FWInfo_Extended_Major: absent });
    },
    row(r) {
      const nodeGuid = guidCell(r, c.guid, guids);
      if (!nodeGuid) return `bad NodeGUID ${show(r, c.guid)}`;
      const v = version(r, extended, versions) ?? version(r, classic, versions);
      if (v === undefined) return undefined;
      const psid = textCell(r, c.psid, texts)?.trim();
      const deviceId = intCell(r, c.device);
      const hwRevision = intCell(r, c.hw);
      if (psid && psid !== 'N/A' && deviceId !== undefined && hwRevision !== undefined) {
        // Every field there (NODES_INFO of a node that answered): the record below, allocated at once.
        data.firmware.push({ nodeGuid, version: v, source, psid, deviceId, hwRevision });
        return undefined;
      }
      // Properties set one by one: a spread per row made three objects a row (11k rows twice).
      const f: DbCsvData['firmware'][number] = { nodeGuid, version: v, source };
      if (psid && psid !== 'N/A') f.psid = psid;
      if (deviceId !== undefined) f.deviceId = deviceId;
      if (hwRevision !== undefined) f.hwRevision = hwRevision;
      data.firmware.push(f);
      return undefined;
    },
  };
}
