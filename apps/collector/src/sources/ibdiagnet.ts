import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { limitText, type FabricSnapshot } from '@ibwatch/fabric';
import { ParseError } from '@ibwatch/parsers';
import { readIbdiagnetDir } from '../input/ibdiagnet-dir.ts';
import { readInputHead } from '../input/input-file.ts';
import type { Config } from '../config.ts';
import { ScanError, type Collected } from './types.ts';
import { describeFailure, type ToolRunner } from './tool-runner.ts';

/** Small files of a run kept as raw output (the big ones are re-readable from the directory). */
const KEEP_RAW = ['ibdiagnet2.log', 'ibdiagnet2.sm', 'ibdiagnet2.debug'];

/**
 * Reads an existing ibdiagnet output directory (import, or after a live run). With `strict`
 * (IBWATCH_IBDIAGNET_STRICT) whatever would be a warning of the directory fails the import.
 */
export async function readIbdiagnet(
  dir: string,
  options: { strict?: boolean } = {},
): Promise<Collected<FabricSnapshot>> {
  let st;
  try {
    st = statSync(dir);
  } catch {
    throw new ScanError(`${dir}: no such directory`);
  }
  if (!st.isDirectory()) throw new ScanError(`${dir}: not a directory`);
  // Only the first MiB of a regular file: `ibdiagnet2.log -> /dev/zero` was read until the
  // process died of std::bad_alloc, and a FIFO blocked the import forever. A file refused here
  // is refused with a warning by the parse below too.
  const raw = KEEP_RAW.flatMap((f) => {
    try {
      return [{ name: f, text: readInputHead(join(dir, f), 1 << 20, { format: f }).toString('utf8') }];
    } catch {
      return [];
    }
  });
  try {
    const r = await readIbdiagnetDir(dir, { strict: options.strict ?? false });
    const version = r.value.meta.ibdiagnetVersion ?? r.value.meta.version ?? 'unknown';
    return {
      data: r.value,
      raw,
      toolVersions: { ibdiagnet: version },
      warnings: [
        ...r.warnings.map((w) => `${w.file ?? 'ibdiagnet2'}:${w.line ?? '?'}: ${w.message}`),
        ...limitText(r.value).map((w) => `ibdiagnet2: ${w}`),
      ],
    };
  } catch (err) {
    if (err instanceof ParseError) throw new ScanError(err.message, raw);
    throw err;
  }
}

/**
 * Runs `ibdiagnet -o DIR [extra args]` (argument array, timeout) into a fresh timestamped
 * directory, then reads it. Extra arguments come validated from IBWATCH_IBDIAGNET_ARGS.
 */
export async function collectIbdiagnet(runner: ToolRunner, config: Config): Promise<Collected<FabricSnapshot>> {
  const dir = join(config.ibdiagnetOutDir, new Date().toISOString().replace(/[:.]/g, '-'));
  mkdirSync(dir, { recursive: true });
  const r = await runner.run(config.ibdiagnetPath, ['-o', dir, ...config.ibdiagnetArgs], {
    timeoutMs: Math.max(config.toolTimeoutMs, 600_000),
  });
  const why = describeFailure(r);
  // ibdiagnet exits non-zero when it found errors in the fabric; its output is still complete.
  if (why && (r.spawnError || r.timedOut || readdirSync(dir).length === 0)) {
    throw new ScanError(why, [{ name: 'ibdiagnet.stderr.txt', text: r.stderr }]);
  }
  const c = await readIbdiagnet(dir, { strict: config.ibdiagnetStrict });
  if (why) c.warnings.unshift(why);
  return c;
}
