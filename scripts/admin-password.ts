// `npm run admin:password [new-password]`: sets the admin password in the configured database
// (DATABASE_URL, else the embedded one in DATA_DIR). Without an argument a strong one is generated.
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { migrateDatabase } from '../server/db/migrate';
import {
  ADMIN_PASSWORD_HASH_KEY,
  generatePassword,
  hashPassword,
} from '../server/modules/admin/admin-auth.service';
import { revokeAdminSessions, writeSetting } from '../server/modules/admin/admin-auth.repository';

const given = process.argv[2];
if (given !== undefined && given.trim().length < 8) {
  console.error('The new password must be at least 8 characters long.');
  process.exit(1);
}
const password = given ?? generatePassword();

const config = loadConfig();

// The embedded database can be open in one process only: refuse while this data dir's server runs.
if (!config.DATABASE_URL) {
  const health = await fetch(`http://127.0.0.1:${config.PORT}/healthz`, { signal: AbortSignal.timeout(1500) })
    .then((r) => r.json() as Promise<{ database?: string }>)
    .catch(() => null);
  if (health?.database === 'pglite') {
    console.error(
      `A server is running on port ${config.PORT} with the embedded database: stop it first, then run this again.`,
    );
    process.exit(1);
  }
}
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
try {
  await migrateDatabase(database);
  const hashed = await hashPassword(password);
  await database.db.transaction(async (tx) => {
    await writeSetting(tx, ADMIN_PASSWORD_HASH_KEY, hashed);
    await revokeAdminSessions(tx);
  });
} finally {
  await database.close();
}

console.log(given === undefined ? `New admin password (shown once): ${password}` : 'Admin password updated.');
if (config.ADMIN_PASSWORD) {
  console.warn(
    'Note: ADMIN_PASSWORD is set in the environment; the server will put that password back on its next start.',
  );
}
console.log('Every admin session was logged out.');
