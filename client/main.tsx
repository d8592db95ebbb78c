import './styles.css';
import { nextTask } from './lib/next-task';

// The boot path uses no timers or animation frames to make progress (only as upper bounds on a
// wait): a test that installs a fake clock must still see the page hydrate.

/** Resolves once the browser has painted the page's content (at once when the tab is hidden). */
function firstContentfulPaint(): Promise<void> {
  return new Promise((resolve) => {
    const supported = typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes?.includes('paint');
    if (!supported || document.visibilityState === 'hidden') return resolve();
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      resolve();
    });
    observer.observe({ type: 'paint', buffered: true });
  });
}

/** The web fonts and the page's first image (fetchpriority="high"), waiting at most `capMs`. */
function firstScreenLoaded(capMs: number): Promise<unknown> {
  const images = [...document.querySelectorAll<HTMLImageElement>('#root img[fetchpriority="high"]')].map((img) =>
    img.complete
      ? null
      : new Promise((done) => {
          img.addEventListener('load', done, { once: true });
          img.addEventListener('error', done, { once: true });
        }),
  );
  return Promise.race([Promise.all([document.fonts?.ready, ...images]), new Promise((r) => setTimeout(r, capMs))]);
}

/** The app's scripts the server listed for this screen (a server-rendered page has no preloads for them). */
function fetchScripts(): void {
  let files: string[] = [];
  try {
    files = JSON.parse(document.getElementById('fifty-scripts')?.textContent ?? '[]') as string[];
  } catch {
    /* no list: the imports below still fetch what they need */
  }
  for (const href of files) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
}

const serverRendered = document.getElementById('root')?.firstElementChild != null;

/**
 * A server-rendered screen is painted first, in its fonts and with its first image; only then are
 * the app's scripts fetched and run to hydrate it, so on a slow phone they never compete with what
 * the shopper is waiting to see. A screen the browser renders itself starts at once.
 */
void (serverRendered ? firstContentfulPaint().then(() => firstScreenLoaded(1500)) : Promise.resolve())
  .then(() => {
    if (serverRendered) fetchScripts();
    return import('./vendor');
  })
  // Libraries and the app's own modules are evaluated in separate tasks.
  .then(nextTask)
  .then(() => import('./boot'))
  .then((m) => m.boot());
