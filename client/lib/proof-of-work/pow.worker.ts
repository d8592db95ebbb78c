/// <reference lib="webworker" />
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';

/** Solves one proof-of-work challenge off the main thread, so the page stays responsive meanwhile. */
const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = async (event: MessageEvent<Challenge>) => {
  try {
    const solution = await solveChallenge({ challenge: event.data, deriveKey, timeout: 60_000 });
    scope.postMessage({ solution });
  } catch (err) {
    scope.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
};
