import type { Challenge, Solution } from 'altcha-lib';
import { apiJson } from '../api-client';

/**
 * The newsletter's bot check (ADR 009): fetches a proof-of-work challenge and solves it in a Web Worker
 * (a second or less of hashing, no puzzle, nothing to see or click). Resolves to the `altcha` field the
 * server expects: base64 JSON `{ challenge, solution }`.
 */
export async function proveHuman(): Promise<string> {
  const challenge = await apiJson<Challenge>('GET', '/api/pow-challenge');
  const worker = new Worker(new URL('./pow.worker.ts', import.meta.url), { type: 'module' });
  try {
    const solution = await new Promise<Solution>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent<{ solution?: Solution | null; error?: string }>) =>
        event.data.solution ? resolve(event.data.solution) : reject(new Error(event.data.error ?? 'not solved'));
      worker.onerror = () => reject(new Error('the bot check could not run'));
      worker.postMessage(challenge);
    });
    return btoa(JSON.stringify({ challenge, solution }));
  } finally {
    worker.terminate();
  }
}
