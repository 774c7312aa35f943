import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // The live lab runs on its own (npm run test:live): real agents, minutes, not seconds.
    exclude: ['test/live/**', '**/node_modules/**'],
    // Tests of real processes (an sshd, a dozen commands over it) take two to three times as long
    // on a loaded machine, two files at a time on two cores (below): 11 s alone, 27–30 s so.
    testTimeout: 90_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default (one worker fewer than the cores) ran one file at a time on two cores; most
    // files wait on the processes they start, so two at a time took 385 s against 561 s there.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: ['test/global-setup.ts'],
  },
});
