import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// The Node versions Fifty supports are the ones package.json declares in "engines" (README says so beside the run command).
// Every installed package must accept all of them: a dependency that drops a supported Node version is
// pinned back (package.json "overrides" or an exact version) or the declared range moves up, never silently.
const root = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[]; os?: string[]; cpu?: string[] }>;
};

describe('Node version', () => {
  it('this Node is one the project declares', () => {
    expect(semver.satisfies(process.versions.node, pkg.engines.node)).toBe(true);
  });

  it('every package in the lock file accepts the lowest declared Node', () => {
    const lowest = semver.minVersion(pkg.engines.node)!.version;
    const refusing = Object.entries(lock.packages)
      .filter(([name, p]) => name && p.engines && !Array.isArray(p.engines) && p.engines.node)
      .filter(([, p]) => !semver.satisfies(lowest, (p.engines as { node: string }).node, { includePrerelease: true }))
      .map(([name, p]) => `${name}@${p.version} wants node ${(p.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });
});
