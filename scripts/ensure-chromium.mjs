// Before the e2e tests: Playwright drives the system's Chromium, never a downloaded browser
// (scripts/chromium-path.mjs says which). Debian's headless shell is installed when it is missing and we
// can (root with apt-get); without it the run drives Debian's full Chromium, installed the same way when
// that is missing too. When no browser can be had, stop with one line saying how.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { FULL_CHROMIUM, HEADLESS_SHELL, chromiumPath } from './chromium-path.mjs';

let aptUsable;
const canApt = () => (aptUsable ??= process.getuid?.() === 0 && spawnSync('sh', ['-c', 'command -v apt-get']).status === 0);
const aptInstall = (pkg) => {
  console.log(`Installing Debian's ${pkg} package for the browser tests…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => spawnSync('apt-get', ['install', '-y', pkg], { stdio: 'inherit', env }).status === 0;
  // The package lists are refreshed only when an install from the present ones fails.
  return install() || (spawnSync('apt-get', ['update', '-y'], { stdio: 'inherit', env }).status === 0 && install());
};

if (process.env.CHROMIUM_PATH) {
  if (!fs.existsSync(process.env.CHROMIUM_PATH)) {
    console.error(`Chromium not found at CHROMIUM_PATH=${process.env.CHROMIUM_PATH}: point it at a Chromium, or unset it to use Debian's.`);
    process.exit(1);
  }
} else {
  if (!fs.existsSync(HEADLESS_SHELL) && canApt() && !aptInstall('chromium-headless-shell')) {
    console.log(`Could not install chromium-headless-shell: the browser tests drive ${FULL_CHROMIUM} instead.`);
  }
  if (!fs.existsSync(chromiumPath()) && !(canApt() && aptInstall('chromium'))) {
    console.error(`Chromium not found: install it (Debian/Ubuntu: sudo apt-get install -y chromium-headless-shell) or set CHROMIUM_PATH.`);
    process.exit(1);
  }
}
