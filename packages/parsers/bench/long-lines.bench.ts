/**
 * An ibdiagnet2.log that is one huge line without a newline (issue 14, defect 4): the time and
 * memory it costs `runLineParserChunks` over a file's 1 MB chunks, for NUL-filled files (refused
 * at the first MiB as binary data)
 * and for files of printable text (skipped line, read to the end). Before the fix the NUL files
 * took 3.4 / 12 / 54 s at 100 / 200 / 400 MB (1.7 GB of memory) and 1 GiB ran past 2 minutes.
 *
 *   node --import tsx packages/parsers/bench/long-lines.bench.ts [MB ...]
 *
 * Files are made in a temp dir (NULs sparse; text written once) and removed afterwards.
 */
import { mkdtempSync, rmSync, truncateSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogParser } from '../src/ibdiagnet/log.ts';
import { runLineParserChunks } from '../src/common/line-runner.ts';
import { fileChunks } from '../src/ibdiagnet/fixtures.test-helper.ts';

const sizes = process.argv.slice(2).map(Number);
const MB = sizes.length > 0 ? sizes : [100, 200, 400, 1024];
const dir = mkdtempSync(join(tmpdir(), 'ibw-long-lines-'));

function textFile(path: string, mb: number): void {
  const chunk = Buffer.alloc(1 << 20, 0x78);
  const fd = openSync(path, 'w');
  for (let i = 0; i < mb; i++) writeSync(fd, chunk);
  closeSync(fd);
}

async function time(path: string): Promise<{ ms: number; rssMb: number; outcome: string }> {
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const t0 = performance.now();
  let outcome: string;
  try {
    const r = runLineParserChunks(new LogParser({ file: path }), fileChunks(path));
    outcome = `${r.warnings.length} warnings`;
  } catch (err) {
    outcome = (err as Error).message.replace(path, 'FILE').slice(0, 70);
  }
  const ms = performance.now() - t0;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { ms, rssMb: (peak - rss0) / 2 ** 20, outcome };
}

try {
  for (const mb of MB) {
    const nul = join(dir, `nul-${mb}.log`);
    writeFileSync(nul, '');
    truncateSync(nul, mb * 2 ** 20);
    const n = await time(nul);
    rmSync(nul);
    const txt = join(dir, `x-${mb}.log`);
    textFile(txt, mb);
    const x = await time(txt);
    rmSync(txt);
    console.log(
      `${String(mb).padStart(5)} MB  NULs: ${n.ms.toFixed(0).padStart(6)} ms, +${n.rssMb.toFixed(0)} ` +
        `MB RSS (${n.outcome})` +
        `  |  "x": ${x.ms.toFixed(0).padStart(6)} ms, +${x.rssMb.toFixed(0)} MB RSS (${x.outcome})`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
