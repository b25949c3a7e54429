import { existsSync } from 'node:fs';
import { test as teardown } from '@playwright/test';
import { FLEET_STATE_FILE, readFleetState, stopFleet } from '../fleet.ts';

// The `fleet-teardown` project, run after the fleet specs (or a failed setup).
teardown('stop the fleet collectors and their labs', async () => {
  teardown.setTimeout(60_000);
  if (existsSync(FLEET_STATE_FILE)) await stopFleet(readFleetState());
});
