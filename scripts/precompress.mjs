// After `vite build`: writes .br and .gz beside each text asset, which @fastify/static serves
// (preCompressed) to browsers that accept them — no compression work per request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = join(resolve(process.env.DIST_DIR ?? 'dist'), 'web');
const TEXT = /\.(js|css|html|svg|json|txt|webmanifest)$/;
let count = 0;
let before = 0;
let after = 0;

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else if (TEXT.test(name)) {
      const data = readFileSync(full);
      if (data.length < 1024) continue;
      const br = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
      writeFileSync(`${full}.br`, br);
      writeFileSync(`${full}.gz`, gzipSync(data, { level: 9 }));
      count++;
      before += data.length;
      after += br.length;
    }
  }
}
walk(root);
console.log(
  `precompressed ${count} files: ${(before / 1024).toFixed(0)} KB → ${(after / 1024).toFixed(0)} KB (brotli)`,
);
