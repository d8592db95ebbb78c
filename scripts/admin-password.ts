// `npm run admin:password`: sets the admin password in the configured database (DATABASE_URL, else the
// embedded one in DATA_DIR). The new password is read from standard input (typed without echo on a
// terminal, or piped: `printf '%s' "$PW" | npm run admin:password`), never from the command line, which
// lands in shell history and in every user's `ps`. `--generate` makes a strong one and prints it once.
import fs from 'node:fs';
import path from 'node:path';
import { ADMIN_PASSWORD_MIN_LENGTH, loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { migrateDatabase } from '../server/db/migrate';
import {
  ADMIN_PASSWORD_HASH_KEY,
  generatePassword,
  hashPassword,
} from '../server/modules/admin/admin-auth.service';
import { writeSetting } from '../server/modules/admin/admin-auth.repository';
import { revokeAdminLogins } from '../server/modules/session/session.service';
import { GENERATED_PASSWORD_FILE } from '../server/modules/admin/generated-password';

const args = process.argv.slice(2);
const generate = args.includes('--generate');
if (args.some((a) => a !== '--generate')) {
  console.error(
    'Do not pass the password as an argument (it stays in your shell history): run `npm run admin:password` and type it, pipe it in, or use --generate.',
  );
  process.exit(1);
}
const password = generate ? generatePassword() : await readNewPassword();
if (password.length < ADMIN_PASSWORD_MIN_LENGTH) {
  console.error(`The new password must be at least ${ADMIN_PASSWORD_MIN_LENGTH} characters long.`);
  process.exit(1);
}

const config = loadConfig();

// The embedded database may be running under the shop: this script then shares it.
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, embeddedMode: 'shared', poolSize: 2 });
try {
  await migrateDatabase(database);
  const hashed = await hashPassword(password);
  await database.db.transaction(async (tx) => {
    await writeSetting(tx, ADMIN_PASSWORD_HASH_KEY, hashed);
    await revokeAdminLogins(tx);
  });
} finally {
  await database.close();
}

// A first-start password file is now stale: remove it so nobody mistakes it for the current one.
fs.rmSync(path.join(config.DATA_DIR, GENERATED_PASSWORD_FILE), { force: true });
console.log(generate ? `New admin password (shown once): ${password}` : 'Admin password updated.');
if (config.ADMIN_PASSWORD) {
  console.warn(
    'Note: ADMIN_PASSWORD is set in the environment; the server will put that password back on its next start.',
  );
}
console.log('Every admin session was logged out.');

/** The new password from stdin: asked twice without echo on a terminal, else the piped text (one trailing newline dropped). */
async function readNewPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
  }
  const first = await promptHidden('New admin password: ');
  const again = await promptHidden('Repeat it: ');
  if (first !== again) {
    console.error('The two passwords differ; nothing was changed.');
    process.exit(1);
  }
  return first;
}

function promptHidden(question: string): Promise<string> {
  return new Promise((resolve) => {
    const stdin = process.stdin;
    process.stdout.write(question);
    stdin.setRawMode(true);
    stdin.resume();
    let value = '';
    const onData = (buf: Buffer) => {
      for (const ch of buf.toString('utf8')) {
        if (ch === '\r' || ch === '\n') {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off('data', onData);
          process.stdout.write('\n');
          resolve(value);
          return;
        }
        if (ch === '\u0003') {
          stdin.setRawMode(false);
          process.stdout.write('\n');
          process.exit(130);
        }
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}
