import { StrictMode, startTransition, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from './lib/query-client';
import { cn } from './lib/cn';
import { nextTask } from './lib/next-task';
import { RootLayout } from './app/root-layout';
import { AppRouter, preloadRoute } from './app/router';

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
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RootLayout>
        <AppRouter />
      </RootLayout>
      <Interactive />
    </QueryClientProvider>
  </StrictMode>
);

/** Starts the app: hydrates the server's markup, or renders a screen the browser renders itself. */
export async function boot(): Promise<void> {
  await preloadRoute(window.location.pathname);
  if (!container.firstElementChild) {
    createRoot(container).render(app);
    return;
  }
  // tailwind-merge builds its class map on first use (~10 ms here, four times that on a slow
  // phone): do it in a task of its own rather than inside the first slice of hydration.
  await nextTask();
  cn('px-2', 'px-4');
  await nextTask();
  // As a transition, hydration works in short slices that leave the main thread free for input.
  startTransition(() => void hydrateRoot(container, app));
}
