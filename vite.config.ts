import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'web',
  publicDir: 'public',
  plugins: [react()],
  build: {
    // DIST_DIR lets parallel builds (several developers' e2e runs) use separate folders.
    outDir: `${process.env.DIST_DIR ? process.env.DIST_DIR.replace(/\/+$/, '') : '../dist'}/web`,
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
