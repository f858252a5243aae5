// Bundles the server into dist/server/main.js; npm packages stay external (installed by npm).
import { build } from 'esbuild';

await build({
  entryPoints: { main: 'server/main.ts', 'seed-demo': 'server/seed/demo.ts' },
  outdir: `${process.env.DIST_DIR ?? 'dist'}/server`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
console.log(`server built: ${process.env.DIST_DIR ?? 'dist'}/server/main.js`);
