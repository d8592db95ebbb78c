import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** SESSION_SECRET, else one generated once and kept in DATA_DIR (mode 600). */
export function resolveSessionSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'session-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = crypto.randomBytes(48).toString('base64url');
    try {
      fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
      return secret;
    } catch {
      // Another instance won the race: use its secret.
      return fs.readFileSync(file, 'utf8').trim();
    }
  }
}
