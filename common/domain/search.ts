// Catalogue search ranking: pure so the server and tests share one definition of "best match".

export interface Searchable {
  name: string;
  description: string;
  materials: string;
  categoryName: string;
}

export function normalizeQuery(q: string): string[] {
  return q
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9"'.]+/)
    .map((t) => t.replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, ''))
    .filter(Boolean);
}

const fold = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');

/** 0 = no match. Every query term must appear somewhere; name hits weigh most. */
export function scoreMatch(item: Searchable, terms: string[]): number {
  if (terms.length === 0) return 0;
  const name = fold(item.name);
  const category = fold(item.categoryName);
  const materials = fold(item.materials);
  const description = fold(item.description);
  let score = 0;
  for (const term of terms) {
    const singular = term.length > 3 && term.endsWith('s') ? term.slice(0, -1) : term;
    const has = (text: string) => text.includes(term) || text.includes(singular);
    let termScore = 0;
    if (has(name)) termScore += new RegExp(`\\b${escapeRe(singular)}`).test(name) ? 12 : 8;
    if (has(category)) termScore += 6;
    if (has(materials)) termScore += 3;
    if (has(description)) termScore += 1;
    if (termScore === 0) return 0;
    score += termScore;
  }
  if (name.includes(terms.join(' '))) score += 10;
  return score;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function rankBySearch<T>(items: T[], q: string, view: (item: T) => Searchable): T[] {
  const terms = normalizeQuery(q);
  return items
    .map((item, index) => ({ item, index, score: scoreMatch(view(item), terms) }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((r) => r.item);
}
