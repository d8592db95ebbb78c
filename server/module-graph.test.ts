import path from 'node:path';
import { expect, test } from 'vitest';
import { findCycles, serverImportGraph } from './module-graph';

const graph = serverImportGraph(path.dirname(new URL(import.meta.url).pathname));

test('server modules, plugins and lib import each other without cycles (type imports included)', () => {
  expect(findCycles(graph)).toEqual([]);
});

test('the cycle finder finds a cycle', () => {
  const g = new Map([
    ['a', new Set(['b'])],
    ['b', new Set(['c'])],
    ['c', new Set(['a'])],
  ]);
  expect(findCycles(g)).toEqual([['a', 'b', 'c', 'a']]);
});

test('modules meet only through services: no module imports another module repository or tables', () => {
  // The lint rule (eslint.config.js, import-x/no-restricted-paths) enforces it per file; here the
  // graph's view: the inventory module is the one reader of catalog's products row past its owner
  // (its other imports are lib/ files, which are no modules).
  expect([...(graph.get('inventory') ?? [])].filter((node) => !node.includes('/'))).toEqual(['catalog']);
});
