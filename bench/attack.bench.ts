// Attack bench: replays, against the real shop, what one determined client tries on drop day
// (docs/security.md, threat model). Each scenario is a file in bench/attack/ that starts its own shop.
// Usage: npm run bench:attack [name-filter…]   Results: bench/README.md, "Attack".
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runScenarios } from './scenario-runner';

const here = path.dirname(fileURLToPath(import.meta.url));
runScenarios(path.join(here, 'attack'), process.argv.slice(2)).then(
  (ok) => process.exit(ok ? 0 : 1),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
