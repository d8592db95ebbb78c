import fs from 'node:fs';
import path from 'node:path';

/** Where a generated admin password goes when nobody is watching the terminal. */
export const GENERATED_PASSWORD_FILE = 'admin-password.txt';

export interface AnnounceOptions {
  dataDir: string;
  /** Whether stdout is a terminal: a person reads it there, while piped output lands in log files. */
  isTTY: boolean;
  log: { warn(obj: object, msg: string): void };
  /** Writes to the terminal (default: stdout). */
  print?: (text: string) => void;
}

/**
 * Hands the first-start admin password to the owner once: on the terminal when there is one, else in
 * DATA_DIR/admin-password.txt (0600) with only its path logged, never the password (logs are shipped
 * and kept). Returns the file written, if any.
 */
export function announceGeneratedPassword(generated: string | null, opts: AnnounceOptions): { file: string | null } {
  if (!generated) return { file: null };
  if (opts.isTTY) {
    const line = '='.repeat(60);
    const print = opts.print ?? ((text: string) => process.stdout.write(text));
    print(`\n${line}\nAdmin password (shown once): ${generated}\nLog in at /admin. Change it with: npm run admin:password\n${line}\n\n`);
    return { file: null };
  }
  fs.mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(opts.dataDir, GENERATED_PASSWORD_FILE);
  fs.writeFileSync(file, `${generated}\n`, { mode: 0o600 });
  // writeFileSync keeps the mode of a file that already exists.
  fs.chmodSync(file, 0o600);
  opts.log.warn(
    { file },
    'A new admin password was generated and written to this file (readable by this user only): log in at /admin, then delete the file',
  );
  return { file };
}
