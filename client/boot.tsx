import { startTransition, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { queryClient } from './lib/query-client';
import { nextTask } from './lib/next-task';
import { AppTree } from './app/app-tree';
import { preloadRoute } from './app/router';
import { preloadAdminChrome } from './app/root-layout';

const container = document.getElementById('root')!;

/**
 * The server sends its rendered page inside <fieldset disabled>: links work at once, buttons and
 * fields wait until hydration has given them their handlers, so no click or keystroke is lost.
 */
function Interactive() {
  useEffect(() => container.removeAttribute('disabled'), []);
  return null;
}

const app = (
  <AppTree client={queryClient}>
    <Interactive />
  </AppTree>
);

/** Starts the app: hydrates the server's markup, or renders a screen the browser renders itself. */
export async function boot(): Promise<void> {
  await Promise.all([preloadRoute(window.location.pathname), preloadAdminChrome(window.location.pathname)]);
  if (!container.firstElementChild) {
    createRoot(container).render(app);
    return;
  }
  await nextTask();
  // As a transition, hydration works in short slices that leave the main thread free for input.
  startTransition(() => void hydrateRoot(container, app));
}
