// Memory check for POST /api/samples (issue #4): uploads 10 photos of 5 MB in one submission, several
// times, and reports the server's peak RSS growth over its settled baseline. The server streams each
// file part to storage, so the growth must stay far below the 50 MB of one request (target < 64 MB).
// Not a timed test: `npm run bench -- upload-memory`.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_SAMPLE_FILE_BYTES, MAX_SAMPLE_PHOTOS } from '../common/domain/uploads';
import { submissionFields, submissionForm } from '../tests/support/factories';

const ROUNDS = 5;
const TARGET_MB = 64;
const MB = 1024 * 1024;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

async function waitHealthy(url: string, child: ChildProcess) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('server exited');
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {}
    if (Date.now() > deadline) throw new Error('server not healthy');
    await new Promise((r) => setTimeout(r, 200));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'vl-bench-upload-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_EMAIL: 'admin@bench.test',
      ADMIN_PASSWORD: 'bench-admin-password',
      LOG_LEVEL: 'warn',
      RATE_LIMITS: 'off',
      DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const pid = child.pid as number;
  try {
    await waitHealthy(url, child);
    const email = 'bench@collector.test';
    const password = 'bench-password-1';
    await fetch(`${url}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, firstName: 'Bench', lastName: 'Client' }),
    });
    const login = await fetch(`${url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const { token } = (await login.json()) as { token: string };

    const jpegHead = readFileSync('tests/fixtures/photo.jpg');
    const photo = new Uint8Array(MAX_SAMPLE_FILE_BYTES);
    photo.set(jpegHead, 0);
    const submit = async (photos: number) => {
      const form = submissionForm(
        submissionFields({
          submitterName: 'Bench Client',
          submitterEmail: email,
          itemName: 'Bench Cabinet',
          description: 'Memory check',
        }),
        [],
      );
      for (let i = 0; i < photos; i++)
        form.append('photos', new Blob([photo], { type: 'image/jpeg' }), `p${i}.jpg`);
      const res = await fetch(`${url}/api/samples`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    };

    // Warm up (JIT, multipart parser, database pool), then let the heap settle for the baseline.
    await submit(1);
    await sleep(1500);
    const baseline = rssBytes(pid);
    let peak = baseline;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, rssBytes(pid));
      } catch {}
    }, 10);
    const started = performance.now();
    for (let i = 0; i < ROUNDS; i++) await submit(MAX_SAMPLE_PHOTOS);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);

    const uploadedMb = (ROUNDS * MAX_SAMPLE_PHOTOS * MAX_SAMPLE_FILE_BYTES) / MB;
    const growthMb = (peak - baseline) / MB;
    console.log(`requests: ${ROUNDS} × ${MAX_SAMPLE_PHOTOS} photos × ${MAX_SAMPLE_FILE_BYTES / MB} MB`);
    console.log(
      `uploaded: ${uploadedMb.toFixed(0)} MB in ${seconds.toFixed(1)} s (${(uploadedMb / seconds).toFixed(0)} MB/s)`,
    );
    console.log(`server RSS baseline: ${(baseline / MB).toFixed(1)} MB, peak: ${(peak / MB).toFixed(1)} MB`);
    console.log(`peak RSS growth: ${growthMb.toFixed(1)} MB (target < ${TARGET_MB} MB)`);
    if (growthMb >= TARGET_MB) {
      console.error('FAIL: upload memory grows with the request size');
      process.exitCode = 1;
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
