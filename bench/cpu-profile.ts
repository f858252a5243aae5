import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

// A V8 CPU profile of part of a benchmark (the timed part, not its set-up), for Chrome DevTools or
// any .cpuprofile viewer. `node --cpu-prof` would also profile tsx's loader thread and the set-up.

/** Starts profiling this thread when `file` is given; `stop()` writes the profile there. */
export async function startProfile(file: string | undefined): Promise<{ stop(): Promise<void> }> {
  if (!file) return { stop: async () => {} };
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  return {
    stop: async () => {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
      console.error(`CPU profile written to ${file}`);
    },
  };
}
