/**
 * infiniband-diags node-name map (`--node-name-map FILE`, default
 * `/etc/rdma/ib-node-name-map`): one node per line, `0x<GUID> "<name>"`, `#` comments. The tools
 * print the name instead of the NodeDescription for that GUID.
 *
 * ## ibwatch rack convention
 * Location goes into a **trailing comment**, as `key=value` words; the tools ignore it:
 * ```
 * 0xb83fd20300002050 "dgx-0005 mlx5_0"   # rack=R07 u=12
 * 0xfc6a1c0300001110 "leaf-r0-01"        # rack=R00 u=42 row=A
 * 0xfc6a1c0300001010 "spine-01"          # network row, cabinet 3
 * ```
 * - `rack=<id>` -> {@link NodeNameEntry.rack}; `u=<n>` (rack unit, integer) -> `u`; any other
 *   `key=value` -> `attrs`.
 * - Comment text that is not `key=value` (the whole comment when it has none) -> `location`,
 *   trimmed: a free-form location for maps written by hand.
 * The lab generator (packages/lab) writes `# rack=R<nn> u=<n>`.
 *
 * Accepted: `0x`-prefixed or bare hex GUIDs (normalised), quoted names (may contain spaces and
 * `#`), unquoted single-word names, CRLF. Problems are warnings and the line is skipped: a GUID
 * that is not 64-bit hex, a missing name, an unterminated quote (the name runs to the end of the
 * line). A GUID listed twice: the later line wins, with a warning. Unusable: binary data only;
 * an empty map is valid (no names).
 */
import type { Guid } from '@ibwatch/fabric';
import { normalizeGuid } from '@ibwatch/fabric';
import { LineContext, type ParseOptions } from './common/line-context.ts';
import { runLineParser, type LineParser, type LineSource } from './common/line-runner.ts';

export interface NodeNameEntry {
  guid: Guid;
  name: string;
  rack?: string;
  /** Rack unit. */
  u?: number;
  /** Free-form comment text that is not `key=value`. */
  location?: string;
  /** Other `key=value` words of the comment. */
  attrs?: Record<string, string>;
  /** 1-based line number. */
  line: number;
}

function parseComment(text: string, e: NodeNameEntry): void {
  const free: string[] = [];
  for (const word of text.trim().split(/\s+/).filter(Boolean)) {
    const kv = /^([A-Za-z_][\w-]*)=(\S+)$/.exec(word);
    if (!kv) free.push(word);
    else if (kv[1] === 'rack') e.rack = kv[2];
    else if (kv[1] === 'u' && /^\d+$/.test(kv[2])) e.u = Number(kv[2]);
    else (e.attrs ??= {})[kv[1]] = kv[2];
  }
  if (free.length > 0) e.location = free.join(' ');
}

/** Line-at-a-time node-name-map parser. */
export function createNodeNameMapParser(opts: ParseOptions = {}): LineParser<NodeNameEntry[]> {
  const ctx = new LineContext('node-name-map', opts.file);
  const byGuid = new Map<Guid, NodeNameEntry>();
  return {
    feed(raw) {
      const line = ctx.next(raw);
      const t = line.trim();
      if (t === '' || t.startsWith('#')) return;
      const m = /^(\S+)\s*(.*)$/.exec(t)!;
      const guid = normalizeGuid(m[1]);
      if (guid === undefined) {
        ctx.unknown(line, `invalid GUID ${JSON.stringify(m[1])}; line skipped`);
        return;
      }
      let rest = m[2];
      let name: string;
      if (rest.startsWith('"')) {
        const end = rest.indexOf('"', 1);
        if (end < 0) {
          ctx.warn('unterminated quote; name runs to the end of the line');
          name = rest.slice(1).trim();
          rest = '';
        } else {
          name = rest.slice(1, end);
          rest = rest.slice(end + 1);
        }
      } else {
        const w = /^([^\s#]+)(.*)$/.exec(rest);
        if (!w) {
          ctx.unknown(line, 'GUID without a name; line skipped');
          return;
        }
        name = w[1];
        rest = w[2];
      }
      const e: NodeNameEntry = { guid, name, line: ctx.lineNo };
      const c = /^\s*#(.*)$/.exec(rest);
      if (c) parseComment(c[1], e);
      else if (rest.trim() !== '') e.location = rest.trim();
      if (byGuid.has(guid))
        ctx.warn(`GUID ${guid} listed again (first on line ${byGuid.get(guid)!.line}); this line wins`);
      byGuid.set(guid, e);
    },
    finish() {
      return ctx.result([...byGuid.values()]);
    },
  };
}

/** Parse a node-name map (text or lines). */
export function parseNodeNameMap(input: LineSource, opts: ParseOptions = {}) {
  return runLineParser(createNodeNameMapParser(opts), input);
}

/** One map line in the ibwatch convention: `0x<guid> "<name>" # rack=<rack> u=<u>`. */
export function formatNodeNameMapLine(e: Pick<NodeNameEntry, 'guid' | 'name' | 'rack' | 'u'>): string {
  const loc = [e.rack !== undefined ? `rack=${e.rack}` : '', e.u !== undefined ? `u=${e.u}` : '']
    .filter(Boolean)
    .join(' ');
  return `${e.guid} "${e.name}"${loc ? `  # ${loc}` : ''}`;
}
