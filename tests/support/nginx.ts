import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './postgres';
import { NGINX_BIN, programInstalled } from './programs';

// Debian's nginx (`nginx-light`) as a load balancer in front of several app instances, run in the
// foreground with everything (pid, logs, temp files) in a throwaway folder.

export { NGINX_BIN };
export const nginxAvailable = () => programInstalled(NGINX_BIN);

export type Nginx = { url: string; errorLog(): string; stop(): Promise<void> };

export async function startNginx(upstreams: string[]): Promise<Nginx> {
  if (!nginxAvailable()) throw new Error(`nginx not found at ${NGINX_BIN} (apt-get install nginx-light)`);
  const dir = mkdtempSync(join(tmpdir(), 'vl-nginx-'));
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, d));
  const port = await freePort();
  const servers = upstreams
    .map((u) => `    server ${u.replace(/^https?:\/\//, '')} max_fails=1 fail_timeout=30s;`)
    .join('\n');
  const conf = `
worker_processes 1;
daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  client_max_body_size 110m;
  upstream app {
${servers}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://app;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_request_buffering off;
      proxy_read_timeout 60s;
      # Idempotent calls move to the other instance when one is gone; a POST is never replayed.
      proxy_next_upstream error timeout;
    }
  }
}
`;
  const confFile = join(dir, 'nginx.conf');
  writeFileSync(confFile, conf);
  const child: ChildProcess = spawn(NGINX_BIN, ['-p', dir, '-e', join(dir, 'error.log'), '-c', confFile], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${stderr}`);
    try {
      // Any HTTP answer means nginx listens (502 if the upstreams are not up yet).
      await fetch(`${url}/api/health`);
      break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`nginx did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const errorLog = () => {
    try {
      return readFileSync(join(dir, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };
  return {
    url,
    errorLog,
    stop: () =>
      new Promise((resolve) => {
        const done = () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null) return done();
        child.once('exit', done);
        child.kill('SIGTERM');
      }),
  };
}
