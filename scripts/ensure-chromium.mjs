// Before the e2e tests: Playwright drives the system's Chromium (CHROMIUM_PATH, default /usr/bin/chromium),
// never a downloaded browser. When it is missing, install Debian's package if we can (root with apt-get),
// else stop with one line saying how.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  const canApt = process.getuid?.() === 0 && spawnSync('sh', ['-c', 'command -v apt-get']).status === 0;
  if (!canApt) {
    console.error(`Chromium not found at ${chromium}: install it (Debian/Ubuntu: sudo apt-get install -y chromium) or set CHROMIUM_PATH.`);
    process.exit(1);
  }
  console.log(`Chromium not found at ${chromium}: installing Debian's chromium package…`);
  for (const args of [['update', '-y'], ['install', '-y', 'chromium']]) {
    const r = spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (r.status !== 0) {
      console.error(`apt-get ${args.join(' ')} failed: install Chromium yourself (apt-get install -y chromium) or set CHROMIUM_PATH.`);
      process.exit(1);
    }
  }
}
