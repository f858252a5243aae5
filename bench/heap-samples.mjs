// `node bench/heap-samples.mjs file.json`: sums a V8 sampling heap profile (the search bench's
// BENCH_HEAP_SAMPLES) by the function that allocated each sample, then by its five callers too:
// where the memory went, largest first.
import { readFileSync } from 'node:fs';

const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const byFrame = new Map();
const byStack = new Map();
let total = 0;

const where = (frame) =>
  `${frame.functionName || '(anonymous)'} ${frame.url.replace(/.*node_modules\//, '').replace(`file://${process.cwd()}/`, '')}:${frame.lineNumber + 1}`;

function walk(node, callers) {
  const stack = [where(node.callFrame), ...callers];
  if (node.selfSize) {
    total += node.selfSize;
    byFrame.set(stack[0], (byFrame.get(stack[0]) ?? 0) + node.selfSize);
    const key = stack.slice(0, 6).join('  <  ');
    byStack.set(key, (byStack.get(key) ?? 0) + node.selfSize);
  }
  for (const child of node.children) walk(child, stack);
}
walk(profile.head, []);

const mb = (n) => (n / 1024 ** 2).toFixed(1).padStart(8);
const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
console.log(`sampled in all: ${mb(total)} MB\n\nby allocating function:`);
for (const [name, size] of top(byFrame, 20)) console.log(`${mb(size)}  ${name}`);
console.log('\nby allocating function and its callers:');
for (const [name, size] of top(byStack, 12)) console.log(`${mb(size)}  ${name}`);
