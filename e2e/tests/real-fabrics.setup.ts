import { test as setup } from '@playwright/test';
import { startRealCollectors } from '../real-fabrics.ts';

// The `real-fabrics-setup` project: runs once before the real-fabric specs (5N-real-*).
setup('import the two real NDR runs with the CLI and serve each', async () => {
  setup.setTimeout(120_000);
  const t0 = performance.now();
  const state = await startRealCollectors();
  console.log(
    `e2e: real-fabric collectors ${state.collectors.map((c) => `${c.run} at ${c.baseURL}`).join(', ')} ` +
      `ready after ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
});
