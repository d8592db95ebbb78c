import { StrictMode, startTransition, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from './lib/query-client';
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

/** Starts the app: hydrates the server's markup, or renders a screen the server left to the browser. */
export function boot(): Promise<void> {
  return preloadRoute(window.location.pathname).then(() => {
    // As a transition, hydration works in short slices that leave the main thread free for input.
    if (container.firstElementChild) startTransition(() => void hydrateRoot(container, app));
    else createRoot(container).render(app);
  });
}
