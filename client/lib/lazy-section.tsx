import { lazy, Suspense, useEffect, useRef, useState, type ComponentType } from 'react';

/**
 * A below-the-fold part of a server-rendered screen whose code is not part of the screen's first
 * download. The server renders it with everything else (`preloadSections` before rendering), so it
 * is on screen at once and its links work natively. In the browser it stays server markup, inside
 * its own Suspense boundary, until it comes near the viewport, the shopper scrolls, presses or
 * types, or the browser is idle after hydrating the page; then its chunk is fetched and React
 * hydrates it. Until then its buttons and fields sit in a disabled <fieldset> (as the whole page
 * does before hydration: client/boot.tsx), so no press is lost. Mounted later (a client-side
 * navigation) it loads at once.
 */
export function lazySection<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  const fetchSection = () =>
    (pending ??= load().then((component) => {
      loaded = component;
      return component;
    }));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  // React calls this while hydrating: the chunk is fetched only once the section is released.
  const Lazy = lazy(() => released.then(fetchSection).then((component) => ({ default: component })));
  const start = () => {
    release();
    void fetchSection().catch(() => undefined);
  };
  registry.push(fetchSection);

  function Section(props: P) {
    // Fixed per instance: swapping Lazy for the loaded component later would remount the section.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? (Lazy as unknown as ComponentType<P>));
    const [ready, setReady] = useState(false);
    const gate = useRef<HTMLFieldSetElement>(null);
    useEffect(() => {
      if (ready || loaded) return;
      // Not part of the first hydration (root still disabled): a client-side mount loads at once.
      if (!document.getElementById('root')?.hasAttribute('disabled')) return start();
      return whenWanted(gate.current?.firstElementChild ?? null, start);
    }, [ready]);
    return (
      <fieldset ref={gate} role="none" disabled={!ready} className="contents">
        <Suspense fallback={null}>
          <Component {...props} />
          <Hydrated onReady={() => setReady(true)} />
        </Suspense>
      </fieldset>
    );
  }
  return Section;
}

function Hydrated({ onReady }: { onReady: () => void }) {
  useEffect(onReady, [onReady]);
  return null;
}

const registry: Array<() => Promise<unknown>> = [];

/** Loads every section registered so far (the server, before rendering a screen). */
export function preloadSections(): Promise<unknown> {
  return Promise.all(registry.map((load) => load().catch(() => undefined)));
}

/**
 * Calls `start` once `element` comes within half a screen of the viewport, on the first scroll,
 * press or key, or when the browser is next idle after the first hydration (whichever is first):
 * the section is live soon after the page, but never competes with it. Returns the cleanup.
 */
function whenWanted(element: Element | null, start: () => void): () => void {
  const events = ['scroll', 'pointerdown', 'keydown'] as const;
  let observer: IntersectionObserver | null = null;
  const idle =
    typeof requestIdleCallback === 'function' ? requestIdleCallback(fire, { timeout: 4000 }) : null;
  const cleanup = () => {
    observer?.disconnect();
    if (idle !== null) cancelIdleCallback(idle);
    for (const e of events) window.removeEventListener(e, fire, true);
  };
  function fire() {
    cleanup();
    start();
  }
  for (const e of events) window.addEventListener(e, fire, { capture: true, passive: true });
  if (element && typeof IntersectionObserver !== 'undefined') {
    observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && fire(), {
      rootMargin: '50% 0px',
    });
    observer.observe(element);
  } else if (!element) {
    fire();
  }
  return cleanup;
}
