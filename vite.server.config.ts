import { defineConfig } from 'vite';

/**
 * The server as one bundle (`dist/server/main.js`): Node then reads a handful of files instead of
 * several hundred, which halves start-to-ready (budgeted under 1 s). Native and rarely used
 * packages stay outside and load from node_modules.
 */
export default defineConfig({
  publicDir: false,
  logLevel: 'warn',
  build: {
    ssr: 'src/server/main.ts',
    outDir: 'dist/server',
    emptyOutDir: true,
    target: 'node24',
    minify: false,
    sourcemap: true,
    rollupOptions: { external: ['@node-rs/argon2', 'pg-native', 'exceljs', 'sharp'] },
  },
  ssr: { noExternal: true, target: 'node' },
});
