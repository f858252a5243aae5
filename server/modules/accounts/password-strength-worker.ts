import { parentPort } from 'node:worker_threads';
import { isGuessablePassword } from './password-score';

// The worker thread that scores new passwords (./password-strength.ts): zxcvbn's matching takes tens
// of milliseconds on patterned input, which must not hold the server's event loop.

export type StrengthRequest = { id: number; password: string; words: string[] };
export type StrengthAnswer = { id: number; guessable: boolean } | { id: number; error: string };

parentPort?.on('message', (req: StrengthRequest) => {
  try {
    parentPort?.postMessage({ id: req.id, guessable: isGuessablePassword(req.password, req.words) });
  } catch (err) {
    parentPort?.postMessage({ id: req.id, error: (err as Error).message });
  }
});
