/**
 * Readers for the db_csv sections the dashboard uses. Each reader gets the header row once and
 * then every data row as field offsets (`CsvRow`); it looks columns up by NAME (ibdiagnet adds
 * columns between versions: PM_INFO grew `*Ext`, `retransmission_*`, `PortLocalPhysicalErrors`...)
 * and parses only the cells it needs, in place. Cells are decoded from the row's bytes only when
 * they become strings (NodeDesc, findings): fresh strings, which keep no read chunk alive.
 */
import type { FabricNode } from '@ibwatch/fabric';
import type { DbCsvData } from './db-csv-types.ts';
import { plainInt } from '../common/bytes.ts';
import type { GuidTable } from '../common/guids.ts';
import {
  guidCell,
  indexer,
  intCell,
  missing,
  optionalGuidCell,
  show,
  type SectionContext,
  type SectionReader,
} from './db-csv-cells.ts';
import { pmReader } from './db-csv-pm.ts';
import type { CsvRow } from './csv.ts';
import { linksReader, portsReader } from './db-csv-ports.ts';
import { firmwareReader } from './db-csv-firmware.ts';
import { MAX_PORT_NUM, nodeTypeFromCode, OutOfRange, parseCounter, parseIntField, smStateFromCode } from './values.ts';

function runInfoReader(data: DbCsvData): SectionReader {
  let names: string[] = [];
  return {
    header(n) {
      names = n;
      return undefined;
    },
    row(r) {
      const f = r.fields();
      names.forEach((n, i) => {
        data.runInfo[n] = f[i];
      });
      const date = data.runInfo['Date'];
      if (date) data.runTimestamp = date.trim();
      return undefined;
    },
  };
}

function nodesReader(data: DbCsvData, ctx: SectionContext): SectionReader {
  const guids = ctx.guids;
  let c = { guid: -1, type: -1, desc: -1, ports: -1, sys: -1, vendor: -1, device: -1 };
  const numPorts = new OutOfRange('NODES column NumPorts', MAX_PORT_NUM);
  return {
    header(names) {
      const ix = indexer(names);
      c = {
        guid: ix('NodeGUID'),
        type: ix('NodeType'),
        desc: ix('NodeDesc'),
        ports: ix('NumPorts'),
        sys: ix('SystemImageGUID'),
        vendor: ix('VendorID'),
        device: ix('DeviceID'),
      };
      return missing({ NodeGUID: c.guid, NodeType: c.type });
    },
    row(r, line) {
      const guid = guidCell(r, c.guid, guids);
      if (!guid) return `bad NodeGUID ${show(r, c.guid)}`;
      // A plain `2` in place; `Number(text)` decides any other cell (`0x2`, ` 2`, empty = 0).
      const code = r.plain(c.type) ? plainInt(r.bytes, r.starts[c.type], r.ends[c.type]) : -1;
      const type = nodeTypeFromCode(code >= 0 ? code : Number(r.text(c.type)));
      if (!type) return `unknown NodeType ${show(r, c.type)}`;
      const desc = r.text(c.desc);
      const description = desc === undefined ? '' : desc;
      const ports = numPorts.check(intCell(r, c.ports), line) ?? 0;
      const sys = guidCell(r, c.sys, guids);
      const vendor = intCell(r, c.vendor);
      const device = intCell(r, c.device);
      if (sys && vendor !== undefined && device !== undefined) {
        // Every field there: the record below, allocated at once with its fields inside it.
        data.nodes.push({
          guid,
          type,
          description,
          numPorts: ports,
          systemImageGuid: sys,
          vendorId: vendor,
          deviceId: device,
        });
        return undefined;
      }
      const node: FabricNode = { guid, type, description, numPorts: ports };
      if (sys) node.systemImageGuid = sys;
      if (vendor !== undefined) node.vendorId = vendor;
      if (device !== undefined) node.deviceId = device;
      data.nodes.push(node);
      return undefined;
    },
    end: () => numPorts.report(ctx.warn),
  };
}

function smInfoReader(data: DbCsvData, guids: GuidTable): SectionReader {
  let c = { node: -1, pguid: -1, port: -1, guid: -1, act: -1, state: -1, prio: -1 };
  return {
    header(names) {
      const ix = indexer(names);
      c = {
        node: ix('NodeGUID'),
        pguid: ix('PortGUID'),
        port: ix('PortNumber'),
        guid: ix('GUID'),
        act: ix('ActCount'),
        state: ix('SmState'),
        prio: ix('Priority'),
      };
      return missing({ GUID: c.guid, SmState: c.state, Priority: c.prio });
    },
    row(r) {
      const guid = guidCell(r, c.guid, guids);
      if (!guid) return `bad GUID ${show(r, c.guid)}`;
      const state = intCell(r, c.state);
      const priority = intCell(r, c.prio);
      if (state === undefined || priority === undefined) return 'bad SmState or Priority';
      // Not needed to place the SM, but a cell there that is no GUID is a damaged row
      // (`xx0xb0cf0e0300d33fc0,...`): skipped with its line rather than taken without it.
      const nodeGuid = optionalGuidCell(r, c.node, guids);
      if (nodeGuid === null) return `bad NodeGUID ${show(r, c.node)}`;
      const portGuid = optionalGuidCell(r, c.pguid, guids);
      if (portGuid === null) return `bad PortGUID ${show(r, c.pguid)}`;
      const act = r.text(c.act);
      const activity = act === undefined ? null : parseCounter(act);
      data.sms.push({
        guid,
        priority,
        state: smStateFromCode(state),
        nodeGuid,
        portGuid,
        portNum: intCell(r, c.port),
        activityCount: typeof activity === 'bigint' ? activity : undefined,
      });
      return undefined;
    },
  };
}

/** WARNINGS_<CHECK> / ERRORS_<CHECK>: `Scope,NodeGUID,PortGUID,PortNumber,EventName,Summary`. */
function findingsReader(
  data: DbCsvData,
  guids: GuidTable,
  severity: 'warning' | 'error',
  check: string,
): SectionReader {
  let c = { scope: -1, node: -1, port: -1, code: -1, text: -1 };
  return {
    header(names) {
      const ix = indexer(names);
      c = {
        scope: ix('Scope'),
        node: ix('NodeGUID'),
        port: ix('PortNumber'),
        code: ix('EventName'),
        text: ix('Summary'),
      };
      return missing({ Summary: c.text });
    },
    row(r, line) {
      const nodeGuid = guidCell(r, c.node, guids);
      const scope = r.text(c.scope);
      // ibdiagnet's scopes are upper-case words (NODE, PORT, CLUSTER); anything else there is a
      // damaged row (`xxNODE,0xb0cf0e0300e5b948,...`), skipped with its line.
      if (scope && !/^[A-Z][A-Z_]*$/.test(scope)) return `bad Scope ${show(r, c.scope)}`;
      const portNum = intCell(r, c.port);
      const code = r.text(c.code);
      data.findings.push({
        severity,
        check,
        text: r.text(c.text)!,
        line,
        ...(scope ? { scope: scope } : {}),
        ...(nodeGuid ? { nodeGuid } : {}),
        // `PORT,0xfc6a...,0xfc6a...,65,PORT_HIERARCHY_MISSING,...`; NODE rows carry `0x00`.
        ...(nodeGuid && scope === 'PORT' && portNum !== undefined ? { port: { nodeGuid, portNum } } : {}),
        ...(code ? { code: code } : {}),
      });
      return undefined;
    },
  };
}

function tempReader(data: DbCsvData, guids: GuidTable): SectionReader {
  let node = -1;
  let temp = -1;
  return {
    header(names) {
      const ix = indexer(names);
      node = ix('NodeGUID');
      temp = ix('CurrentTemperature');
      return missing({ NodeGUID: node, CurrentTemperature: temp });
    },
    row(r) {
      const nodeGuid = guidCell(r, node, guids);
      const t = intCell(r, temp);
      if (!nodeGuid) return `bad NodeGUID ${show(r, node)}`;
      if (t !== undefined) data.temperatures.push({ nodeGuid, temperatureC: t });
      return undefined;
    },
  };
}

/**
 * CABLE_INFO (needs `--get_cable_info`). No real sample of this section exists here; the column
 * names are those other db_csv readers select (NodeGuid, PortNum, Vendor, PN, SN, Length*,
 * Temperature) **(inferred)**, looked up leniently so a renamed column only loses that field.
 */
function cableReader(data: DbCsvData, guids: GuidTable): SectionReader {
  let c: Record<string, number> = {};
  let lengthCols: number[] = [];
  return {
    header(names) {
      const ix = indexer(names);
      c = {
        node: ix('NodeGuid', 'NodeGUID'),
        port: ix('PortNum', 'PortNumber'),
        vendor: ix('Vendor'),
        pn: ix('PN', 'PartNumber'),
        sn: ix('SN', 'SerialNumber'),
        type: ix('Type', 'Identifier'),
        temp: ix('Temperature'),
      };
      lengthCols = names.map((n, i) => (/^length/i.test(n) ? i : -1)).filter((i) => i >= 0);
      return missing({ NodeGuid: c.node, PortNum: c.port });
    },
    row(r) {
      const nodeGuid = guidCell(r, c.node, guids);
      const portNum = intCell(r, c.port);
      if (!nodeGuid || portNum === undefined) return 'bad NodeGuid or PortNum';
      const text = (k: string): string | undefined => {
        const v = r.text(c[k])?.trim();
        return v && v !== 'N/A' && v !== 'NA' ? v : undefined;
      };
      const lengths = lengthCols.map((i) => parseFloat(r.text(i)!)).filter((n) => Number.isFinite(n) && n > 0);
      const temp = parseFloat(text('temp') ?? '');
      data.cables.push({
        nodeGuid,
        portNum,
        ...(text('vendor') ? { vendor: text('vendor') } : {}),
        ...(text('pn') ? { partNumber: text('pn') } : {}),
        ...(text('sn') ? { serialNumber: text('sn') } : {}),
        ...(text('type') ? { type: text('type') } : {}),
        ...(lengths.length ? { lengthM: lengths[0] } : {}),
        ...(Number.isFinite(temp) ? { temperatureC: temp } : {}),
      });
      return undefined;
    },
  };
}

/** INDEX_TABLE: `Name, Offset, Size, Line, Rows` (header names padded with spaces). */
function indexReader(data: DbCsvData): SectionReader {
  let c = { name: -1, line: -1, rows: -1 };
  return {
    header(names) {
      const ix = indexer(names);
      c = { name: ix('Name'), line: ix('Line'), rows: ix('Rows') };
      return missing({ Name: c.name });
    },
    row(r) {
      const name = r.text(c.name)?.trim();
      if (!name || !/^[A-Z][A-Z0-9_]*$/.test(name)) return `bad section name ${show(r, c.name)}`;
      data.index.push({ name, line: intCell(r, c.line), rows: intCell(r, c.rows) });
      return undefined;
    },
  };
}

/** The reader for a section, or undefined when this parser only counts its rows. */
export function sectionReader(name: string, data: DbCsvData, ctx: SectionContext): SectionReader | undefined {
  switch (name) {
    case 'RUN_INFO':
      return runInfoReader(data);
    case 'NODES':
      return nodesReader(data, ctx);
    case 'PORTS':
      return portsReader(data, ctx);
    case 'LINKS':
      return linksReader(data, ctx);
    case 'PM_INFO':
      return pmReader(
        (t) => {
          data.pmInfo = t;
        },
        ctx,
        name,
        ctx.rowsHint,
      );
    case 'PM_DELTA':
      return pmReader(
        (t) => {
          data.pmDelta = t;
        },
        ctx,
        name,
        ctx.rowsHint,
      );
    case 'SM_INFO':
      return smInfoReader(data, ctx.guids);
    case 'TEMP_SENSING':
      return tempReader(data, ctx.guids);
    case 'CABLE_INFO':
      return cableReader(data, ctx.guids);
    case 'INDEX_TABLE':
      return indexReader(data);
    case 'NODES_INFO':
    case 'GENERAL_INFO_SMP':
      return firmwareReader(data, ctx.guids, name);
  }
  if (name.startsWith('WARNINGS_')) return findingsReader(data, ctx.guids, 'warning', name.slice(9));
  if (name.startsWith('ERRORS_')) return findingsReader(data, ctx.guids, 'error', name.slice(7));
  return undefined;
}
