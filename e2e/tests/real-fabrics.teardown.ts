import { existsSync } from 'node:fs';
import { test as teardown } from '@playwright/test';
import { readRealState, REAL_STATE_FILE, stopRealCollectors } from '../real-fabrics.ts';

// The `real-fabrics-teardown` project, run after the real-fabric specs (or a failed setup).
teardown('stop the real-fabric collectors', async () => {
  if (existsSync(REAL_STATE_FILE)) await stopRealCollectors(readRealState());
});
