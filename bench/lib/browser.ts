/**
 * The dashboard in headless Debian Chromium, as the render figures measure it: the topology
 * page's canvas (navigation to the first frame, its own first-render time, pan/zoom frames) and
 * the overview's first contentful paint. Shared by `pnpm bench` (serve stage) and `bench:spot`.
 */
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { CHROMIUM } from './preflight.ts';

/** The few Playwright calls used here (the types live in the e2e package). */
export interface Page {
  goto(url: string): Promise<unknown>;
  addInitScript(script: string): Promise<void>;
  waitForFunction(fn: () => boolean, arg: undefined, o: { timeout: number }): Promise<unknown>;
  evaluate<T>(fn: () => T | Promise<T>): Promise<T>;
  locator(sel: string): {
    first(): { boundingBox(): Promise<{ x: number; y: number; width: number; height: number } | null> };
  };
  mouse: {
    move(x: number, y: number, o?: { steps: number }): Promise<void>;
    wheel(dx: number, dy: number): Promise<void>;
    down(): Promise<void>;
    up(): Promise<void>;
  };
  waitForTimeout(ms: number): Promise<void>;
  close(): Promise<void>;
}
export interface Browser {
  newPage(o: object): Promise<Page>;
  close(): Promise<void>;
}
interface Playwright {
  chromium: { launch(o: { executablePath: string; args: string[] }): Promise<Browser> };
}

/** Launches Chromium through the e2e package's Playwright (no dependency of its own). */
export function launchChromium(): Promise<Browser> {
  const req = createRequire(resolve(import.meta.dirname, '../../e2e/package.json'));
  const pw = req('@playwright/test') as Playwright;
  return pw.chromium.launch({ executablePath: CHROMIUM, args: ['--disable-gpu', '--disable-quic'] });
}

interface TopoStats {
  firstRenderMs: number;
  lastFrameMs: number;
}
// Page functions are serialised into the browser: each reads the canvas's stats itself.
type WithStats = { __ibwatchTopoStats?: TopoStats };

export interface TopologyTimes {
  /** From `goto` to the canvas's first frame, fetching `/api/topology` included. */
  navigationMs: number;
  /** The canvas's own first render (layout + draw). */
  firstRenderMs: number;
  /** Frame times while zooming and dragging. */
  frameMs: number[];
}

/** Opens the topology page on `baseUrl` and measures it; `moves` pan/zoom gestures. */
export async function measureTopology(browser: Browser, baseUrl: string, moves: number): Promise<TopologyTimes> {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  try {
    const t = Date.now();
    await page.goto(`${baseUrl}/topology`);
    await page.waitForFunction(() => (globalThis as WithStats).__ibwatchTopoStats !== undefined, undefined, {
      timeout: 60_000,
    });
    const navigationMs = Date.now() - t;
    const firstRenderMs = await page.evaluate(() => (globalThis as WithStats).__ibwatchTopoStats!.firstRenderMs);
    const box = (await page.locator('canvas').first().boundingBox())!;
    const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
    await page.mouse.move(cx, cy);
    const frameMs: number[] = [];
    for (let k = 0; k < moves; k++) {
      await page.mouse.wheel(0, k % 2 ? 300 : -300);
      await page.mouse.down();
      await page.mouse.move(cx + 40, cy + 20, { steps: 4 });
      await page.mouse.up();
      await page.waitForTimeout(50);
      frameMs.push(await page.evaluate(() => (globalThis as WithStats).__ibwatchTopoStats!.lastFrameMs));
    }
    return { navigationMs, firstRenderMs, frameMs };
  } finally {
    await page.close();
  }
}

/**
 * The overview's first contentful paint in a fresh page, and when the fabric's status word (from
 * the latest summary) appeared. The first paint can be the static "Loading ibwatch…" shell of
 * index.html, so the status word's time says when the operator sees the fabric's state. The
 * paint entry is recorded a moment after the paint itself, so it is awaited with a buffered
 * PerformanceObserver; reading `getEntriesByName()` right after the page rendered could find none
 * yet (that was the NaN). The status word is timed by a MutationObserver installed before the
 * page's own scripts run.
 */
export async function overviewFirstPaint(
  browser: Browser,
  baseUrl: string,
): Promise<{ fcpMs: number; statusMs: number }> {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  try {
    // A string, not a function: the bench compiles without the DOM's types.
    await page.addInitScript(`new MutationObserver((_, obs) => {
      if (document.querySelector('[data-testid="fabric-status-word"]')) {
        window.__ibwStatusAt = performance.now();
        obs.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });`);
    await page.goto(`${baseUrl}/`);
    const fcpMs = await page.evaluate(
      () =>
        new Promise<number>((done) => {
          const timer = setTimeout(() => done(Number.NaN), 15_000);
          new PerformanceObserver((list) => {
            const e = list.getEntriesByName('first-contentful-paint')[0];
            if (e) {
              clearTimeout(timer);
              done(e.startTime);
            }
            // 'paint' is a browser entry type; Node's typings list only the server-side ones.
          }).observe({ type: 'paint', buffered: true } as unknown as { type: 'mark'; buffered: boolean });
        }),
    );
    if (!Number.isFinite(fcpMs)) throw new Error('the overview reported no first-contentful-paint within 15 s');
    type WithStatus = { __ibwStatusAt?: number };
    await page.waitForFunction(() => (globalThis as WithStatus).__ibwStatusAt !== undefined, undefined, {
      timeout: 15_000,
    });
    const statusMs = await page.evaluate(() => (globalThis as WithStatus).__ibwStatusAt!);
    return { fcpMs, statusMs };
  } finally {
    await page.close();
  }
}
