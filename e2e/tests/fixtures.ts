import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import { join } from 'node:path';
import { OUTPUT_DIR, readState, type E2eState } from '../state.ts';

export { expect };
// The API contract. A relative type-only import because e2e/package.json does not (yet) declare
// @ibwatch/fabric; switch to the package name once it does.
import type { TopologyReply } from '../../packages/fabric/src/api.ts';
export type {
  CounterHistoryReply,
  FabricSummary,
  FindingRow,
  NcclRunDetailReply,
  NcclRunRow,
  PortDetailReply,
  PortsReply,
  ScanRow,
  SmReply,
  TopoLink,
  TopologyReply,
  WorklistEntry,
} from '../../packages/fabric/src/api.ts';
import { topologyObjects, type TopologyObjects } from '../../packages/fabric/src/topology-columns.ts';

type ScanKind = 'pm' | 'sm' | 'topology';

/** Typed reads and token-bearing writes against the collector the suite started. */
export class Api {
  constructor(
    private readonly req: APIRequestContext,
    private readonly token: string,
  ) {}

  async get<T>(path: string): Promise<T> {
    const res = await this.req.get(path);
    expect(res.status(), `GET ${path}: ${await res.text()}`).toBe(200);
    return (await res.json()) as T;
  }

  /** GET /api/topology (columns, format 2) as nodes and links objects. */
  async topology(): Promise<TopologyObjects> {
    return topologyObjects(await this.get<TopologyReply>('/api/topology'));
  }

  async post<T>(path: string, data: unknown): Promise<T> {
    const res = await this.req.post(path, { data, headers: { authorization: `Bearer ${this.token}` } });
    expect(res.status(), `POST ${path}: ${await res.text()}`).toBeLessThan(300);
    return (await res.json()) as T;
  }

  /** "Scan now" through the API: the same pipeline as the schedule, finished when this returns. */
  async scan(kind: ScanKind): Promise<{ id: number; status: string }> {
    return this.post('/api/scans', { kind });
  }

  /**
   * Runs a `kind` scan and checks `probe`, again and again, until `probe` gives a value.
   * Scans are at least `gapMs` apart so the suite stays under the 30/min write limit; the cron
   * scans keep running in between as well.
   */
  async scanUntil<T>(
    kind: ScanKind,
    probe: () => Promise<T | undefined>,
    what: string,
    timeoutMs = 30_000,
    gapMs = 3_000,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let lastScan = 0;
    for (;;) {
      if (Date.now() - lastScan >= gapMs) {
        lastScan = Date.now();
        await this.scan(kind);
      }
      const v = await probe();
      if (v !== undefined) return v;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

export const test = base.extend<{ env: E2eState; api: Api }>({
  // The port is chosen at run time by global-setup, so the baseURL comes from its state file.
  baseURL: async ({}, use) => use(readState().baseURL),
  env: async ({}, use) => use(readState()),
  api: async ({ request, env }, use) => use(new Api(request, env.token)),
});

/** Full-page screenshot to e2e/output/<name>.png (kept by CI as an artifact). */
export async function snap(page: Page, name: string): Promise<string> {
  const path = join(OUTPUT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  return path;
}

/** Stores the write token the way the header's Token control does (through the UI). */
export async function setTokenViaUi(page: Page, token: string): Promise<void> {
  await page.getByTestId('token-button').click();
  await page.getByTestId('token-input').fill(token);
  await page.getByTestId('token-save').click();
  await expect(page.getByTestId('token-button')).toHaveText('● Token set');
}
