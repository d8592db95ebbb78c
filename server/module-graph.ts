import fs from 'node:fs';
import path from 'node:path';

/**
 * The import graph between server modules (server/modules/<name>), the flows (server/flows/<name>.ts, as
 * `flows/<name>`) and the files of server/plugins and server/lib, type imports included,
 * tests and server/db (schema aggregation, migrations, seed) left out: docs/architecture.md's module map
 * is drawn from it and module-graph.test.ts keeps it acyclic.
 */
export function serverImportGraph(serverDir: string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const nodeOf = (file: string): string | null => {
    const rel = path.relative(serverDir, file).split(path.sep);
    if (rel[0] === 'modules' && rel.length > 2) return rel[1]!;
    if (rel[0] === 'flows' && rel.length === 2) return `flows/${rel[1]!.replace(/\.ts$/, '')}`;
    // plugins/ and lib/ are folders of independent files, not capabilities: each file is its own node.
    if (rel.length === 2 && ['plugins', 'lib'].includes(rel[0]!)) return `${rel[0]}/${rel[1]!.replace(/\.ts$/, '')}`;
    return null;
  };
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
      const full = path.join(dir, d.name);
      if (d.isDirectory()) return d.name === 'migrations' ? [] : walk(full);
      return d.name.endsWith('.ts') && !d.name.endsWith('.test.ts') ? [full] : [];
    });
  for (const file of walk(serverDir)) {
    const from = nodeOf(file);
    if (!from) continue;
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    const source = fs.readFileSync(file, 'utf8');
    for (const m of source.matchAll(/(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)) {
      const target = path.resolve(path.dirname(file), m[1] ?? m[2]!);
      // A foreign key names another module's table in the schema; it is no call into that module.
      if (file.endsWith('.tables.ts') && target.endsWith('.tables')) continue;
      const to = nodeOf(target.endsWith('.ts') ? target : `${target}.ts`);
      if (to && to !== from) edges.add(to);
    }
  }
  return graph;
}

/** Every cycle's first occurrence, as a path a → b → … → a (empty when the graph is acyclic). */
export function findCycles(graph: Map<string, Set<string>>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'visiting');
    stack.push(node);
    for (const next of [...(graph.get(node) ?? [])].sort()) {
      if (state.get(next) === 'visiting') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

/** The capabilities: one folder each under server/modules. */
export function serverModules(serverDir: string): string[] {
  return fs
    .readdirSync(path.join(serverDir, 'modules'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** The tables each module declares in its `*.tables.ts` files (the names `pgTable` gives them). */
export function moduleTables(serverDir: string): Map<string, string[]> {
  const tables = new Map<string, string[]>();
  for (const name of serverModules(serverDir)) {
    const dir = path.join(serverDir, 'modules', name);
    const found = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.tables.ts'))
      .flatMap((f) => [...fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/pgTable\(\s*['"]([a-z0-9_]+)['"]/g)].map((m) => m[1]!));
    tables.set(name, found.sort());
  }
  return tables;
}

/** The flows: one file each under server/flows (tests left out), the only code that calls several modules. */
export function serverFlows(serverDir: string): string[] {
  const dir = path.join(serverDir, 'flows');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();
}

/** The modules each flow imports (the Flows table of docs/architecture.md). */
export function flowCalls(graph: Map<string, Set<string>>, flows: string[], modules: string[]): Map<string, string[]> {
  return new Map(flows.map((f) => [f, [...(graph.get(`flows/${f}`) ?? [])].filter((to) => modules.includes(to)).sort()]));
}

/**
 * The event streams the modules serve: the route paths ending in `/events` in a module's `*.routes.ts`
 * (the Streams table of docs/architecture.md), each with its module.
 */
export function eventStreams(serverDir: string): Array<{ path: string; module: string }> {
  const found: Array<{ path: string; module: string }> = [];
  for (const name of serverModules(serverDir)) {
    const dir = path.join(serverDir, 'modules', name);
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.routes.ts'))) {
      const source = fs.readFileSync(path.join(dir, file), 'utf8');
      for (const m of source.matchAll(/['"](\/api\/[^'"]*\/events)['"]/g)) found.push({ path: m[1]!, module: name });
    }
  }
  return found.sort((a, b) => a.path.localeCompare(b.path));
}

/** The names of the in-process jobs a source file schedules: `jobs.every('name', …)` (server/services.ts). */
export function scheduledJobs(source: string): string[] {
  return [...source.matchAll(/\bjobs\.every\(\s*['"]([a-z0-9-]+)['"]/g)].map((m) => m[1]!).sort();
}

/**
 * Who calls whom among the modules alone (plugins/ and lib/ left out): the module map's "calls" and
 * "called by" columns in docs/architecture.md (server/architecture-doc.test.ts compares them).
 */
export function moduleCalls(graph: Map<string, Set<string>>, modules: string[]): Map<string, { calls: string[]; calledBy: string[] }> {
  const result = new Map(modules.map((m) => [m, { calls: [] as string[], calledBy: [] as string[] }]));
  for (const from of modules) {
    for (const to of [...(graph.get(from) ?? [])].sort()) {
      if (!result.has(to)) continue;
      result.get(from)!.calls.push(to);
      result.get(to)!.calledBy.push(from);
    }
  }
  for (const entry of result.values()) entry.calledBy.sort();
  return result;
}

// `npx tsx server/module-graph.ts` prints the module map's generated columns, to paste into docs/architecture.md.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const serverDir = path.dirname(new URL(import.meta.url).pathname);
  const modules = serverModules(serverDir);
  const tables = moduleTables(serverDir);
  const calls = moduleCalls(serverImportGraph(serverDir), modules);
  const list = (xs: string[]) => (xs.length ? xs.join(', ') : '—');
  console.log('| module | tables | calls | called by (modules) |\n|---|---|---|---|');
  for (const m of modules) {
    const { calls: out, calledBy } = calls.get(m)!;
    console.log(`| ${m} | ${list(tables.get(m)!.map((t) => `\`${t}\``))} | ${list(out)} | ${list(calledBy)} |`);
  }
  console.log('\n| flow | calls (modules) |\n|---|---|');
  const graph = serverImportGraph(serverDir);
  for (const [flow, called] of flowCalls(graph, serverFlows(serverDir), modules)) console.log(`| ${flow} | ${list(called)} |`);
  console.log(`\nstreams: ${eventStreams(serverDir).map((s) => `${s.path} (${s.module})`).join(', ')}`);
  console.log(`\njobs (server/services.ts): ${scheduledJobs(fs.readFileSync(path.join(serverDir, 'services.ts'), 'utf8')).join(', ')}`);
}
