import { defineProject } from 'vitest/config';

// Parser tests read real and generated ibdiagnet runs (some on a worker thread that loads tsx and
// the parsers first): 1-2 s alone, over vitest's 5 s default when the full suite shares a loaded
// 2-core machine. Not a speed check: pnpm bench measures the reads.
export default defineProject({ test: { environment: 'node', testTimeout: 60_000 } });
