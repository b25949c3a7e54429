import { defineProject } from 'vitest/config';

// Tests that parse the real ibdiagnet2 runs whole (several MB) take 1-3 s
// alone and passed vitest's 5-s default on a loaded 2-core machine (load average 20: four timed out
// in a clean clone's scripts/test.sh). Speed is what the benches measure; a test only needs an end.
export default defineProject({ test: { environment: 'node', testTimeout: 60_000 } });
