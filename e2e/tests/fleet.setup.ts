import { test as setup } from '@playwright/test';
import { startFleet } from '../fleet.ts';

// The `fleet-setup` project: three labs and their collectors, before the fleet specs (7N-fleet-*).
setup('start three lab fabrics and a collector on each, plane-1 listing the others', async () => {
  setup.setTimeout(180_000);
  const t0 = performance.now();
  const state = await startFleet();
  console.log(
    `e2e: fleet collectors ` +
      `${state.collectors.map((c) => `${c.name} (${c.gpus} GPUs) at ${c.baseURL}`).join(', ')} ready ` +
      `after ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
});
