// The one machine behind every lifecycle of the shop: a transition table (from → the statuses it may
// move to) and the three questions the code asks of it. The tables themselves live with their domain
// (checkout-lifecycle.ts: checkout, stock hold, order; draw-lifecycle.ts: draw, entry); the
// repositories move a row only along an edge, in a conditional UPDATE (`WHERE status = ANY(sourcesOf(...))`).

/** From → the statuses it may move to; a status with no way out is final. */
export type Lifecycle<S extends string> = { readonly [From in S]: readonly S[] };

/** A move that is not an edge of its lifecycle's table (a bug in the caller, never a shopper's mistake). */
export class IllegalTransitionError extends Error {
  constructor(
    readonly lifecycle: string,
    readonly from: string,
    readonly to: string,
  ) {
    super(`Illegal ${lifecycle} transition: ${from} → ${to}`);
    this.name = 'IllegalTransitionError';
  }
}

/** The questions asked of a set of named transition tables, typed by each table's statuses. */
export function lifecycleRules<T extends Record<string, Lifecycle<string>>>(tables: T) {
  type StatusOf<L extends keyof T> = keyof T[L] & string;
  const table = (lifecycle: keyof T) => tables[lifecycle] as Record<string, readonly string[]>;

  /** Whether `from → to` is an edge of the lifecycle (an unknown `from` has none). */
  function can<L extends keyof T & string>(lifecycle: L, from: string, to: StatusOf<L>): boolean {
    return table(lifecycle)[from]?.includes(to) ?? false;
  }

  /** Throws IllegalTransitionError unless `from → to` is an edge of the lifecycle. */
  function assert<L extends keyof T & string>(lifecycle: L, from: string, to: StatusOf<L>): void {
    if (!can(lifecycle, from, to)) throw new IllegalTransitionError(lifecycle, from, to);
  }

  /**
   * The statuses a row may be in to move to `to` (what `WHERE status = ANY(...)` allows); a status
   * nothing moves to (a checkout's `open`) has none, and asking for it is an IllegalTransitionError.
   */
  function sourcesOf<L extends keyof T & string>(lifecycle: L, to: StatusOf<L>): Array<StatusOf<L>> {
    const edges = table(lifecycle);
    const sources = Object.keys(edges).filter((from) => edges[from]!.includes(to)) as Array<StatusOf<L>>;
    if (sources.length === 0) throw new IllegalTransitionError(lifecycle, '*', to);
    return sources;
  }

  return { can, assert, sourcesOf };
}
