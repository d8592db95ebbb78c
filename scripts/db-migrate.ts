import { loadConfigOrExit } from '../server/config';
import { prepareDatabase } from '../server/db/prepare';

await prepareDatabase(loadConfigOrExit());
console.log('Database migrated.');
