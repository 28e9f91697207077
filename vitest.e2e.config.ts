import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['e2e/**/*.e2e.ts'],
    // Each file starts its own server and browser; two cores run them one at a time.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A screen's first draw waits for its chunk and its first request; on a busy CI machine that
    // has taken more than the default second of expect.poll.
    expect: { poll: { timeout: 10_000 } },
  },
});
