// Runs corpus cases through the collector's real import paths (bad-input.test.ts and the
// hostile corpus share it): one database for imports, one for infiniband-diags scans through
// the runner seam, one for strict ibdiagnet2 imports; every case is held to the same rules.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ScanRow } from '@ibwatch/fabric';
import { createContext, type Context } from '../../../src/context.ts';
import { cannedLab, fingerprint, labOutputs, PARSER_FIXTURES, RUN_A, tempDir, testConfig } from '../support.ts';
import type { CannedRunner } from '../support.ts';
import { runDir } from './run-dirs.ts';
import type { CorpusCase } from './types.ts';

/** Run A without its .cables (a file of an older run): an import without a warning. */
const cleanRunA = () => runDir('clean-run-a', { 'ibdiagnet2.cables': null });

export const GOOD_NCCL = readFileSync(join(PARSER_FIXTURES, 'nccl/all_reduce_perf.multinode.good.txt'), 'utf8');

export interface CaseResult {
  format: string;
  name: string;
  status: string;
  message: string;
}

export class CorpusRunner {
  imports!: Context;
  diags!: Context;
  private strictCtx: Context | undefined;
  private runner!: CannedRunner;
  readonly results: CaseResult[] = [];

  /** The databases, each with a good import of its kind already stored. */
  async setUp(): Promise<void> {
    this.imports = createContext(testConfig(tempDir('corpus-imports')));
    expect((await this.imports.scans.importIbdiagnet(RUN_A, 'cli')).status).not.toBe('failed');
    const nccl = await this.imports.scans.importNccl(GOOD_NCCL, { cluster: 'a' }, 'good.txt', 'cli');
    expect(nccl.scan.status).toBe('ok');
    this.runner = cannedLab();
    this.diags = createContext(testConfig(tempDir('corpus-diags'), { IBWATCH_SOURCE: 'diags' }), {
      runner: this.runner,
    });
    for (const k of ['topology', 'sm', 'pm', 'pm'] as const)
      expect((await this.diags.scans.run(k, 'cli')).status).not.toBe('failed');
  }

  tearDown(): void {
    for (const c of [this.imports, this.diags, this.strictCtx]) c?.db.close();
  }

  private async strict(): Promise<Context> {
    if (this.strictCtx === undefined) {
      this.strictCtx = createContext(testConfig(tempDir('corpus-strict'), { IBWATCH_IBDIAGNET_STRICT: 'true' }));
      expect((await this.strictCtx.scans.importIbdiagnet(cleanRunA(), 'cli')).status).toBe('ok');
    }
    return this.strictCtx;
  }

  async contextOf(c: CorpusCase): Promise<Context> {
    if (c.format === 'infiniband-diags') return this.diags;
    return c.format === 'ibdiagnet2' && c.strict ? this.strict() : this.imports;
  }

  async run(c: CorpusCase, ctx: Context): Promise<ScanRow> {
    switch (c.format) {
      case 'ibdiagnet2':
        return ctx.scans.importIbdiagnet(c.input(), 'cli');
      case 'nccl-tests':
        return (await ctx.scans.importNccl(c.input(), { cluster: 'corpus' }, c.file, 'api')).scan;
      case 'infiniband-diags': {
        this.runner.outputs = new Map(Object.entries(c.outputs()));
        try {
          return await ctx.scans.run(c.scan, 'cli');
        } finally {
          this.runner.outputs = new Map(Object.entries(labOutputs()));
        }
      }
    }
  }

  /** The same context imports good input right after the bad one: nothing is stuck or poisoned. */
  async goodImportStillWorks(c: CorpusCase, ctx: Context): Promise<void> {
    if (c.format === 'infiniband-diags') {
      expect((await ctx.scans.run(c.scan, 'cli')).status).not.toBe('failed');
    } else if (c.format === 'nccl-tests') {
      expect((await ctx.scans.importNccl(GOOD_NCCL, { cluster: 'a' }, 'good.txt', 'cli')).scan.status).toBe('ok');
    } else {
      // Run A's .cables is of another run: a warning, a failure in strict mode.
      const dir = c.format === 'ibdiagnet2' && c.strict ? cleanRunA() : RUN_A;
      expect((await ctx.scans.importIbdiagnet(dir, 'cli')).status).not.toBe('failed');
    }
  }

  /**
   * Runs `c` and checks what every case must: its outcome and mentions, nothing earlier changed
   * when it failed (and a good import works right after), warnings when partial, no scan left
   * running, and the case's own check.
   */
  async check(c: CorpusCase): Promise<ScanRow> {
    const ctx = await this.contextOf(c);
    const before = fingerprint(ctx.db);
    const fabric = () =>
      ctx.db.prepare("SELECT (SELECT COUNT(*) FROM nodes) || '/' || (SELECT COUNT(*) FROM ports)").pluck().get();
    const fabricBefore = fabric();
    const row = await this.run(c, ctx);
    const text = [row.error ?? '', ...row.warnings].join('\n');
    this.results.push({
      format: c.format,
      name: c.name,
      status: row.status,
      message: row.error ?? row.warnings[0] ?? '',
    });

    expect(row.status, text).toBe(c.expect);
    for (const m of c.mentions) expect(text).toMatch(m);
    if (row.status === 'failed') {
      expect(row.error).toBeTruthy();
      expect(fingerprint(ctx.db)).toBe(before);
    }
    if (c.sameFabric) expect(fabric()).toBe(fabricBefore);
    if (row.status === 'partial') expect(row.warnings.length + (row.error ? 1 : 0)).toBeGreaterThan(0);
    expect(ctx.db.prepare("SELECT COUNT(*) FROM scans WHERE status = 'running'").pluck().get()).toBe(0);
    c.check?.(ctx, row);
    // After a partial import the next case shows the process still works; after a failure, check.
    if (row.status === 'failed') await this.goodImportStillWorks(c, ctx);
    return row;
  }

  /** One line per case and the counts by outcome. */
  summary(title: string, results: CaseResult[] = this.results): string {
    const w = Math.max(...results.map((r) => r.name.length));
    const lines = results.map(
      (r) => `${r.format.padEnd(16)} ${r.name.padEnd(w)}  ${r.status.padEnd(8)}  ${r.message.slice(0, 110)}`,
    );
    const counts = [...new Set(results.map((r) => r.status))]
      .map((s) => `${results.filter((r) => r.status === s).length} ${s}`)
      .join(', ');
    return `${title}: ${results.length} cases, ${counts}\n${lines.join('\n')}`;
  }
}
