// Bundles the server into $DIST_DIR/server/main.js (default dist/); npm packages stay external.
import { cpSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build } from 'esbuild';

const distDir = resolve(process.env.DIST_DIR ?? 'dist');
await build({
  entryPoints: {
    main: 'server/main.ts',
    'seed-demo': 'server/seed/demo.ts',
    // Started by the server as a child process to decode photos (server/modules/photos/photo-copier.ts).
    'photo-copy-process': 'server/modules/photos/photo-copy-process.ts',
    // The worker thread that scores new passwords (server/modules/accounts/password-strength.ts).
    'password-strength-worker': 'server/modules/accounts/password-strength-worker.ts',
  },
  outdir: join(distDir, 'server'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
// The bundle carries its migrations, so it runs from any folder.
cpSync('server/db/migrations', join(distDir, 'server', 'migrations'), { recursive: true });
// A dist dir outside the project (parallel builds in /tmp) still needs the project's packages.
if (relative(process.cwd(), distDir).startsWith('..')) {
  const link = join(distDir, 'node_modules');
  mkdirSync(distDir, { recursive: true });
  if (!existsSync(link)) symlinkSync(resolve('node_modules'), link, 'dir');
}
console.log(`server built: ${join(distDir, 'server', 'main.js')}`);
