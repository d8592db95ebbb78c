// Which Chromium the browser tests drive (docs/decisions/019-tests-drive-the-headless-shell.md).
// CHROMIUM_PATH when set; else Debian's headless shell (package chromium-headless-shell, the same Chromium
// build without the desktop browser around it: a third less CPU for the same e2e run); else Debian's
// full Chromium. Never a downloaded browser.
import fs from 'node:fs';

export const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const FULL_CHROMIUM = '/usr/bin/chromium';

/** The browser the e2e run launches. */
export function chromiumPath() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM;
}
