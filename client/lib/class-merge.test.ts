import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extendTailwindMerge } from 'tailwind-merge';
import { mergeClasses } from './class-merge';

// tailwind-merge with its default config, minus its LRU cache: the pair check below asks ~1.7 million
// distinct questions once each, and keeping the answers took about half of the test's time.
const twMerge = extendTailwindMerge({ cacheSize: 0 });

/** Every class-like word in a string literal of client/ (what cn() is ever given). */
function classesInClient(): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (
        /\.tsx?$/.test(entry.name) &&
        !entry.name.includes('.test.') &&
        entry.name !== 'class-merge.ts'
      ) {
        const src = fs.readFileSync(p, 'utf8');
        for (const m of src.matchAll(/(["'`])((?:(?!\1)[^\\\n]|\\.)*)\1/g)) {
          // One word is a class only in a className attribute (else it is an id, a path, a name…).
          if (!/\s/.test(m[2].trim()) && !src.slice(0, m.index).endsWith('className=')) continue;
          for (const word of m[2].split(/\s+/))
            if (/^!?[a-z0-9:[\]/.#%_()&>*=-]+!?$/.test(word) && !/^[./]/.test(word)) found.add(word);
        }
      }
    }
  };
  walk(path.resolve(__dirname, '..'));
  return [...found];
}

const variantsOf = (cls: string) => cls.split(':').slice(0, -1).sort().join(':');

describe('mergeClasses', () => {
  it('resolves conflicts as tailwind-merge does, for every pair of classes written in client/', () => {
    const byVariants = new Map<string, string[]>();
    for (const cls of classesInClient())
      byVariants.set(variantsOf(cls), [...(byVariants.get(variantsOf(cls)) ?? []), cls]);
    const wrong: string[] = [];
    for (const group of byVariants.values()) {
      for (const a of group) {
        for (const b of group) {
          const input = `${a} ${b}`;
          const ours = mergeClasses(input);
          const theirs = twMerge(input);
          // The same string is the same set; only a different one is compared as a set (order aside).
          if (ours !== theirs && ours.split(' ').sort().join(' ') !== theirs.split(' ').sort().join(' '))
            wrong.push(`${input} → ${ours} (tailwind-merge: ${theirs})`);
        }
      }
    }
    expect(wrong.slice(0, 80).join('\n')).toBe('');
  });

  it('keeps the later class of a conflict, in order, and unknown classes as they are', () => {
    expect(mergeClasses('h-11 px-5 text-sm h-14 w-full')).toBe('px-5 text-sm h-14 w-full');
    expect(mergeClasses('p-4 px-2')).toBe('p-4 px-2');
    expect(mergeClasses('px-2 p-4')).toBe('p-4');
    expect(mergeClasses('text-sm text-ink hover:bg-ink bg-white hover:bg-white')).toBe(
      'text-sm text-ink bg-white hover:bg-white',
    );
    expect(mergeClasses('lucide lucide-x h-4')).toBe('lucide lucide-x h-4');
  });
});
