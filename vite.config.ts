import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import SignInEmail from './src/web/routes/signin/SignInEmail.tsx';

/**
 * Writes `.br` and `.gz` beside every text asset of the build; the server sends them to browsers
 * that accept them (@fastify/static `preCompressed`), so phones download a fraction of the bytes.
 */
function precompress(): Plugin {
  return {
    name: 'premios-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist/web';
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|html|svg|json)$/.test(fileName)) continue;
        const file = path.join(outDir, fileName);
        const content = fs.readFileSync(file);
        if (content.length < 256) continue;
        fs.writeFileSync(
          `${file}.br`,
          brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
        fs.writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

/**
 * Writes `.vite/modules.json`: for each chunk, the source modules bundled into it. The web budget
 * check (scripts/web-budget.ts) reads it to tell which code a page loads (the Vite manifest names
 * chunks only).
 */
function moduleMap(): Plugin {
  return {
    name: 'premios-module-map',
    apply: 'build',
    generateBundle(_options, bundle) {
      const root = path.resolve(import.meta.dirname);
      const chunks: Record<string, string[]> = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        chunks[output.fileName] = output.moduleIds.map((id) =>
          path.relative(root, id).split(path.sep).join('/'),
        );
      }
      this.emitFile({
        type: 'asset',
        fileName: '.vite/modules.json',
        source: JSON.stringify(chunks),
      });
    },
  };
}

/**
 * Writes `signin.html`: the built index.html with the /signin screen already drawn in it (its
 * plain elements and the shell's stylesheet), which the server sends for /signin. The form paints
 * before any script; React then renders the same screen in its place (createRoot, no hydration).
 */
function prerenderSignIn(): Plugin {
  return {
    name: 'premios-prerender-signin',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') return;
      const screen = renderToStaticMarkup(
        createElement(MemoryRouter, { initialEntries: ['/signin'] }, createElement(SignInEmail)),
      );
      const html = String(index.source).replace(
        /<div id="root">[\s\S]*?<\/div>\s*<\/div>/,
        // Marked, so that the screen keeps what was typed into it before the script ran.
        `<div id="root">${screen.replace('<main class="signin-page">', '<main class="signin-page" data-prerendered="">')}</div>`,
      );
      if (html === index.source) throw new Error('index.html: no #root placeholder to replace');
      this.emitFile({ type: 'asset', fileName: 'signin.html', source: html });
    },
  };
}

export default defineConfig(({ command }) => ({
  root: 'src/web',
  publicDir: false,
  plugins: [react(), precompress(), moduleMap(), prerenderSignIn()],
  resolve: {
    // React Router's package resolves to its development build, whose warnings stay in the bundle;
    // the production build is the same code with them off (6 KB less gzip on the first load).
    alias:
      command === 'build'
        ? [
            {
              find: /^react-router$/,
              replacement: path.resolve(
                import.meta.dirname,
                'node_modules/react-router/dist/production/index.mjs',
              ),
            },
          ]
        : [],
  },
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    // Preloaded: the page's own files (from the HTML) and the providers' files, which every
    // signed-in screen needs (MUI, emotion, TanStack Query: fetched in parallel, not as the
    // browser reads each import). Other screens' lists stay out of the entry: they cost /signin
    // 1.8 KB. No polyfill: every supported browser preloads modules itself.
    modulePreload: {
      polyfill: false,
      resolveDependencies: (file, deps, { hostType }) =>
        hostType === 'html' || /(^|\/)providers-[^/]+\.js$/.test(file) ? deps : [],
    },
    // The import graph, read by the web budget check (scripts/web-budget.ts).
    manifest: true,
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // What every page loads first, in one chunk (it compresses better than several):
              // React, the router and Vite's preloader.
              name: 'shell',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]|vite[\\/]preload-helper/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
}));
