import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { eventStreams, flowCalls, moduleCalls, moduleTables, scheduledJobs, serverFlows, serverImportGraph, serverModules } from './module-graph';

// docs/architecture.md's module map, flow map, streams and jobs tables are read against the code, so they
// cannot go stale: the modules are the folders of server/modules, the flows the files of server/flows,
// "calls" and "called by" the import graph (server/module-graph.ts; `npx tsx server/module-graph.ts`
// prints the generated columns), the streams the `…/events` routes of the modules, the jobs the
// `jobs.every(...)` calls of server/services.ts.

const serverDir = path.dirname(new URL(import.meta.url).pathname);
const doc = fs.readFileSync(path.join(serverDir, '..', 'docs', 'architecture.md'), 'utf8');

/** The rows (cells, trimmed) of the first markdown table after the heading that starts with `heading`. */
function tableAfter(markdown: string, heading: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => /^#+ /.test(l) && l.replace(/^#+ /, '').startsWith(heading));
  if (start < 0) throw new Error(`no heading "${heading}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^#+ /.test(line)) break;
    if (!line.startsWith('|')) {
      if (rows.length) break;
      continue;
    }
    rows.push(line.replace(/^\||\|$/g, '').split('|').map((c) => c.trim()));
  }
  return rows.slice(2); // header and separator
}

/** A cell's list items, parenthesised notes left out: "catalog (product), inventory (stock; …)" → two items. */
function listItems(cell: string): string[] {
  let text = cell;
  for (let prev = ''; prev !== text; ) [prev, text] = [text, text.replace(/\([^()]*\)/g, '')];
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '' && item !== '—');
}

/** The module names a cell lists; with `strict`, an item that is no module name is an error. */
function modulesIn(cell: string, modules: string[], strict: boolean): string[] {
  const found: string[] = [];
  for (const item of listItems(cell)) {
    const first = item.split(/\s/)[0]!.replace(/`/g, '');
    if (modules.includes(first)) found.push(first);
    else if (strict) throw new Error(`"${item}" in "${cell}" is not a module`);
  }
  return [...new Set(found)].sort();
}

const modules = serverModules(serverDir);
const mapRows = tableAfter(doc, 'Module map');
const row = (name: string) => mapRows.find((r) => r[0] === name);

describe('docs/architecture.md agrees with the code', () => {
  test('the module map has one row per folder of server/modules, and four columns on every row', () => {
    expect(mapRows.map((r) => r[0]).sort()).toEqual(modules);
    expect(mapRows.filter((r) => r.length !== 4).map((r) => r[0])).toEqual([]);
  });

  test("each module's row names every table its *.tables.ts declares", () => {
    const missing = [...moduleTables(serverDir)].flatMap(([name, tables]) =>
      tables.filter((t) => !row(name)?.[1]?.includes(`\`${t}\``)).map((t) => `${name}: ${t}`),
    );
    expect(missing).toEqual([]);
  });

  test('"calls" lists exactly the modules each module imports, "called by" exactly the modules importing it', () => {
    const calls = moduleCalls(serverImportGraph(serverDir), modules);
    const fromDoc = modules.map((m) => ({
      module: m,
      calls: modulesIn(row(m)?.[2] ?? '', modules, true),
      calledBy: modulesIn(row(m)?.[3] ?? '', modules, false),
    }));
    const fromCode = modules.map((m) => ({ module: m, ...calls.get(m)! }));
    expect(fromDoc).toEqual(fromCode);
  });

  test('the flow map has one row per file of server/flows, and "calls" lists exactly the modules each imports', () => {
    const flows = serverFlows(serverDir);
    const flowRows = tableAfter(doc, 'Flow map');
    expect(flowRows.map((r) => r[0]!.replace(/`/g, '')).sort()).toEqual(flows);
    const calls = flowCalls(serverImportGraph(serverDir), flows, modules);
    const fromDoc = flowRows.map((r) => ({ flow: r[0]!.replace(/`/g, ''), calls: modulesIn(r[1] ?? '', modules, true) }));
    expect(fromDoc.sort((a, b) => a.flow.localeCompare(b.flow))).toEqual(flows.map((f) => ({ flow: f, calls: calls.get(f)! })));
  });

  test('the streams table lists exactly the event-stream routes of the modules, each with its module', () => {
    const documented = tableAfter(doc, 'Streams').map((r) => ({ path: r[0]!.replace(/`/g, ''), module: r[1]!.replace(/`/g, '').split(/\s/)[0]! }));
    expect(documented.sort((a, b) => a.path.localeCompare(b.path))).toEqual(eventStreams(serverDir));
  });

  test('the jobs table lists exactly the jobs server/services.ts schedules', () => {
    const services = fs.readFileSync(path.join(serverDir, 'services.ts'), 'utf8');
    const documented = tableAfter(doc, 'Jobs').map((r) => r[0]!.replace(/`/g, ''));
    expect(documented.sort()).toEqual(scheduledJobs(services));
    // Each names its module (or the lib/ file it runs).
    const owners = tableAfter(doc, 'Jobs').map((r) => r[2]!.replace(/`/g, '').split(/\s/)[0]!);
    expect(owners.filter((o) => !modules.includes(o) && !o.startsWith('lib/'))).toEqual([]);
  });
});

describe('the readers this test relies on', () => {
  test('a table is read from its heading to its end; notes in brackets are no items', () => {
    const md = '## A\n\ntext\n\n| x | y |\n|---|---|\n| a | b (c, d) |\n| e | — |\n\nafter\n| z | z |\n## B\n| q |';
    expect(tableAfter(md, 'A')).toEqual([
      ['a', 'b (c, d)'],
      ['e', '—'],
    ]);
    expect(listItems('b (c, (d, e)), f')).toEqual(['b', 'f']);
    expect(listItems('— (nothing)')).toEqual([]);
  });

  test('the code readers find what the doc is checked against', () => {
    expect(modules).toContain('catalog');
    expect(serverFlows(serverDir)).toContain('admin-login');
    expect(eventStreams(serverDir).map((s) => s.module)).toContain('inventory');
  });

  test('scheduledJobs reads the names of jobs.every calls', () => {
    expect(scheduledJobs("jobs.every('b-job', 1, f);\n  jobs.every(\n 'a-job', 2, g); other.every('no', 1)")).toEqual(['a-job', 'b-job']);
  });

  test('a module row that lists a call the code does not make would fail', () => {
    expect(modulesIn('catalog (x), inventory', modules, true)).toEqual(['catalog', 'inventory']);
    expect(() => modulesIn('catalog, the moon', modules, true)).toThrow(/not a module/);
  });
});
