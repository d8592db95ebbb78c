import { useEffect, useSyncExternalStore } from 'react';
import { isReleased, msUntilRelease } from '../../common/domain/release';
import { readBootstrap } from './bootstrap';

// One clock for every countdown on the page (docs/product.md §9, Scheduled release): it ticks on the second while some
// product still waits for its release, and stops when none does.

const listeners = new Set<() => void>();
let now = 0;
let timer: ReturnType<typeof setTimeout> | null = null;

function tick(): void {
  now = Date.now();
  for (const l of listeners) l();
}

function schedule(): void {
  // On the next whole second, so every countdown on the page changes together.
  timer = setTimeout(() => {
    tick();
    schedule();
  }, 1000 - (Date.now() % 1000));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    schedule();
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearTimeout(timer);
      timer = null;
    }
  };
}

const noSubscription = () => () => {};

function getSnapshot(): number {
  return timer ? now : Math.floor(Date.now() / 1000) * 1000;
}

/** The server's render and the browser's first (hydrating) render use the page's render time. */
function getServerSnapshot(): number {
  return readBootstrap().now ?? Math.floor(Date.now() / 1000) * 1000;
}

const never = () => 0;

/** The page's clock (ms), ticking every second while `active`; `null` reads no time at all (0). */
export function useNow(active: boolean | null): number {
  return useSyncExternalStore(
    active ? subscribe : noSubscription,
    active === null ? never : getSnapshot,
    active === null ? never : getServerSnapshot,
  );
}

export interface ReleaseClock {
  released: boolean;
  /** Until the release (0 once released). */
  msLeft: number;
}

/** Is the product on sale yet, and how long until it is: updates every second, flips at the release. */
export function useReleaseClock(releaseAt: string | null): ReleaseClock {
  const product = { releaseAt };
  // A product without a release time reads no clock: nothing on its card changes with time.
  const snapshot = useNow(releaseAt === null ? null : !isReleased(product, Date.now()));
  const released = isReleased(product, snapshot);
  // The release second itself: a tick at that instant, not up to a second later.
  useEffect(() => {
    if (released || !releaseAt) return;
    const wait = msUntilRelease(product, Date.now());
    const t = setTimeout(tick, wait);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- product is rebuilt from releaseAt
  }, [released, releaseAt]);
  return { released, msLeft: msUntilRelease(product, snapshot) };
}

const noChange = () => () => {};

/** False in the server's render and while hydrating, true after: for what depends on the browser (its time zone). */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noChange,
    () => true,
    () => false,
  );
}
