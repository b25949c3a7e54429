/**
 * A captured infiniband-diags output given by path (`ibwatch import diags FILE`): what a
 * technician pastes from a node or a switch into a ticket. The tool is told from the content
 * (`--format` overrides), the text parsed as the live scans parse it. A file the parser cannot
 * use fails the scan naming the file and line; nothing is stored then.
 */
import { basename } from 'node:path';
import {
  DIAGS_FORMATS,
  type DiagsFormat,
  detectDiagsFormat,
  type HcaPortStatus,
  type IbqePort,
  type LinkInfoPort,
  ParseError,
  type PerfqueryBlock,
  parseIblinkinfo,
  parseIbqueryerrors,
  parseIbstat,
  parsePerfquery,
} from '@ibwatch/parsers';
import { readInputFile } from '../input/input-file.ts';
import { type Collected, ScanError } from './types.ts';

/** 64 MiB: an ibqueryerrors `--counters` paste of a 10k-GPU fabric is ~25 MB. */
export const DIAGS_FILE_MAX_BYTES = 64 * 1024 * 1024;

export type DiagsPaste = { file: string } & (
  | { format: 'ibqueryerrors'; ports: IbqePort[] }
  | { format: 'perfquery'; blocks: PerfqueryBlock[] }
  | { format: 'iblinkinfo'; ports: LinkInfoPort[]; links: number }
  | { format: 'ibstat' | 'ibstatus'; ports: HcaPortStatus[] }
);

export function isDiagsFormat(s: string): s is DiagsFormat {
  return (DIAGS_FORMATS as readonly string[]).includes(s);
}

function parsePaste(format: DiagsFormat, text: string, file: string) {
  const opts = { file };
  switch (format) {
    case 'ibqueryerrors': {
      const r = parseIbqueryerrors(text, opts);
      return { paste: { file, format, ports: r.value.ports } as DiagsPaste, warnings: r.warnings };
    }
    case 'perfquery': {
      const r = parsePerfquery(text, opts);
      return { paste: { file, format, blocks: r.value } as DiagsPaste, warnings: r.warnings };
    }
    case 'iblinkinfo': {
      const r = parseIblinkinfo(text, opts);
      return {
        paste: { file, format, ports: r.value.ports, links: r.value.links.length } as DiagsPaste,
        warnings: r.warnings,
      };
    }
    default: {
      const r = parseIbstat(text, opts);
      if (r.value.format !== format) r.warnings.unshift({ message: `read as ${r.value.format}, not ${format}`, file });
      return { paste: { file, format: r.value.format, ports: r.value.ports } as DiagsPaste, warnings: r.warnings };
    }
  }
}

/** Read, recognise and parse one pasted output (a `ScanError` naming file and line when unusable). */
export function readDiagsFile(path: string, format?: DiagsFormat): Collected<DiagsPaste> {
  const file = basename(path);
  const bytes = readInputFile(path, { format: 'diags', maxBytes: DIAGS_FILE_MAX_BYTES });
  const text = bytes.toString('utf8');
  const raw = [{ name: file, text: bytes }];
  const fmt = format ?? detectDiagsFormat(text);
  if (!fmt)
    throw new ScanError(
      `${file}: not an output of ${DIAGS_FORMATS.join(', ')} that ibwatch recognises (name it with --format)`,
      raw,
    );
  try {
    const { paste, warnings } = parsePaste(fmt, text, file);
    return {
      data: paste,
      raw,
      toolVersions: {},
      warnings: warnings.map((w) => `${w.file ?? file}:${w.line ?? '?'}: ${w.message}`),
    };
  } catch (err) {
    if (err instanceof ParseError) throw new ScanError(err.message, raw);
    throw err;
  }
}
