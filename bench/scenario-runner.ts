// Runs every `*.scenario.ts` in one folder in name order (or only those whose name contains an argument),
// each a self-contained scenario that starts its own shop and returns rows to print. Used by
// `bench:attack` (bench/attack/) and the newer parts of `bench:faults` (bench/faults/).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface ScenarioResult {
  /** One line per measured figure: what, the target, what was measured, and whether it met the target. */
  rows: Array<{ what: string; target: string; measured: string; ok: boolean }>;
}

export type Scenario = () => Promise<ScenarioResult>;

export async function runScenarios(folder: string, only: string[]): Promise<boolean> {
  const files = fs
    .readdirSync(folder)
    .filter((f) => f.endsWith('.scenario.ts'))
    .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
    .sort();
  let allOk = true;
  for (const file of files) {
    const mod = (await import(pathToFileURL(path.join(folder, file)).href)) as { default: Scenario };
    console.log(`\n## ${file}`);
    const started = Date.now();
    try {
      const { rows } = await mod.default();
      for (const r of rows) {
        allOk &&= r.ok;
        console.log(`| ${r.what} | ${r.target} | ${r.measured} | ${r.ok ? 'met' : 'MISSED'} |`);
      }
    } catch (err) {
      allOk = false;
      console.error(`${file} failed:`, err);
    }
    console.log(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
  return allOk;
}
