// The newer fault scenarios (SIGTERM under streaming load, the embedded PostgreSQL killed, a full disk,
// skewed clocks, over-admission): each a file in bench/faults/ that starts its own shop.
// Usage: npx tsx bench/faults-more.bench.ts [name-filter…] (npm run bench:faults runs it after faults.bench.ts)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runScenarios } from './scenario-runner';

const here = path.dirname(fileURLToPath(import.meta.url));
runScenarios(path.join(here, 'faults'), process.argv.slice(2)).then(
  (ok) => process.exit(ok ? 0 : 1),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
