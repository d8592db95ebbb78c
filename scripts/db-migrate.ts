import { loadConfig } from '../server/config';
import { prepareDatabase } from '../server/db/prepare';

await prepareDatabase(loadConfig());
console.log('Database migrated.');
