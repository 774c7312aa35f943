// The live lab (npm run test:live): the real agents in tmux against the lab's fake model.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/live/scenarios/**/*.live.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One file per agent: the agents run side by side, each file's scenarios one after another.
    fileParallelism: true,
    maxWorkers: 2,
    globalSetup: ['test/live/lab/global-setup.ts'],
  },
});
