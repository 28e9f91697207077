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
    ssr: true,
    outDir: 'dist/server',
    emptyOutDir: true,
    target: 'node24',
    minify: false,
    sourcemap: true,
    rollupOptions: {
      // The SMTP thread starts from a file of its own (src/server/mail/transport.ts).
      input: { main: 'src/server/main.ts', 'smtp-thread': 'src/server/mail/smtp-thread.ts' },
      output: {
        entryFileNames: '[name].js',
        charset: 'ascii',
        comments: { legal: true, annotation: true, jsdoc: false },
      },
      external: ['@node-rs/argon2', 'pg-native', 'exceljs', 'sharp'],
    },
  },
  ssr: { noExternal: true, target: 'node' },
});
