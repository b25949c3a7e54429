/**
 * The topology worker (topo-worker.ts), started before its work is there: the lazy route starts
 * it while the view's chunk and the reply download, so its script is loaded and compiled by the
 * time the reply's bytes arrive. Kept small: the app's main chunk imports it.
 */
let spare: Worker | null = null;

function start(): Worker | null {
  try {
    return new Worker(new URL('./topo-worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return null;
  }
}

/** Starts a worker for the next `takeWorker()` (none where module workers are missing). */
export function warmWorker(): void {
  if (typeof Worker !== 'undefined') spare ??= start();
}

/** Ends the started worker, if any (the view will not use it). */
export function dropWorker(): void {
  spare?.terminate();
  spare = null;
}

/** The started worker, or a new one; null where there are no module workers. */
export function takeWorker(): Worker | null {
  const w = spare ?? (typeof Worker === 'undefined' ? null : start());
  spare = null;
  return w;
}
