import fs from 'node:fs';
import path from 'node:path';

/**
 * The import graph between server modules (server/modules/<name>) and the files of server/plugins and
 * server/lib, type imports included,
 * tests and server/db (schema aggregation, migrations, seed) left out: docs/architecture.md's module map
 * is drawn from it and module-graph.test.ts keeps it acyclic.
 */
export function serverImportGraph(serverDir: string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const nodeOf = (file: string): string | null => {
    const rel = path.relative(serverDir, file).split(path.sep);
    if (rel[0] === 'modules' && rel.length > 2) return rel[1]!;
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
