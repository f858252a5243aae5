// `node bench/host-speed.mjs`: a fixed amount of single-thread CPU work, timed. The host's speed
// changes by the hour; a figure from it beside a suite or bench time tells whether the machine or the
// change moved (docs/benchmarks.md, "The test suite").
import { createHash } from 'node:crypto';

const t = performance.now();
let x = 0;
for (let i = 0; i < 3e8; i++) x = (x * 31 + i) % 1000003;
const loop = performance.now() - t;
const block = Buffer.alloc(64 << 20);
const t2 = performance.now();
for (let i = 0; i < 4; i++) createHash('sha256').update(block).digest();
console.log(`loop ${loop.toFixed(0)} ms, sha256 of 256 MB ${(performance.now() - t2).toFixed(0)} ms (${x})`);
