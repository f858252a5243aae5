import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// CPU time of the processes a benchmark involves, read from /proc (Linux): the server under test, the
// PostgreSQL cluster (postmaster and every backend) and the load generator (this process). On a shared
// machine, CPU time spent per request is a steadier comparison than requests per second, and summing
// all three shows work a server causes outside its own process (its database writes, the bytes the
// load generator must parse).

const TICK_MICROS = 1_000_000 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim() || 100);

type Stat = { ppid: number; own: number; waitedChildren: number };

function readStat(pid: number): Stat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces; the fields after its closing parenthesis are plain.
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const n = (i: number) => Number(f[i] ?? 0);
    // f[1] ppid; f[11] utime, f[12] stime; f[13] cutime, f[14] cstime (children already waited for).
    return { ppid: n(1), own: (n(11) + n(12)) * TICK_MICROS, waitedChildren: (n(13) + n(14)) * TICK_MICROS };
  } catch {
    return null;
  }
}

/** CPU time (µs) one process has used so far. */
export function processCpuMicros(pid: number): number {
  return readStat(pid)?.own ?? 0;
}

/**
 * CPU time (µs) a PostgreSQL cluster has used so far: the postmaster, its live children (backends,
 * background workers) and the children that have already exited.
 */
export function clusterCpuMicros(dataDir: string): number {
  const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const root = readStat(postmaster);
  if (!root) return 0;
  let total = root.own + root.waitedChildren;
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === postmaster) continue;
    const stat = readStat(pid);
    if (stat?.ppid === postmaster) total += stat.own;
  }
  return total;
}

/** CPU time (µs) this process (the load generator) has used so far. */
export function ownCpuMicros(): number {
  const c = process.cpuUsage();
  return c.user + c.system;
}

/** The whole machine's CPU ticks so far (every core): busy (user, system, irq, steal…) and idle. */
export function machineTicks(): { busy: number; idle: number } {
  const cpu =
    readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
  // user nice system idle iowait irq softirq steal (guest time is already in user)
  const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
  const busy = cpu.slice(0, 8).reduce((s, x) => s + x, 0) - idle;
  return { busy, idle };
}
