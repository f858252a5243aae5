import { writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const distDir = process.env.DIST_DIR ? process.env.DIST_DIR.replace(/\/+$/, '') : 'dist';

/**
 * Writes $DIST_DIR/web-chunks.json (beside web/, so it is never served): each JavaScript chunk with
 * the source modules it starts from and the chunks it imports. scripts/check-web-size.mjs reads it to
 * add up what each public page loads.
 */
function chunkGraph(): Plugin {
  return {
    name: 'chunk-graph',
    apply: 'build',
    writeBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((c) =>
        c.type === 'chunk'
          ? [
              {
                file: c.fileName,
                isEntry: c.isEntry,
                source: c.facadeModuleId ? relative(process.cwd(), c.facadeModuleId) : null,
                imports: c.imports,
                dynamicImports: c.dynamicImports,
              },
            ]
          : [],
      );
      writeFileSync(resolve(distDir, 'web-chunks.json'), `${JSON.stringify(chunks, null, 1)}\n`);
    },
  };
}

export default defineConfig({
  root: 'web',
  publicDir: 'public',
  plugins: [react(), chunkGraph()],
  build: {
    // DIST_DIR lets parallel builds (several developers' e2e runs) use separate folders.
    outDir: `${process.env.DIST_DIR ? distDir : '../dist'}/web`,
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 800,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:3000',
      '/Uploads': 'http://localhost:3000',
      '/login': {
        target: 'http://localhost:3000',
        bypass: (req) => (req.method === 'GET' ? req.url : undefined),
      },
    },
  },
});
