import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { QueryClientProvider } from '@tanstack/react-query';
import { Router } from 'wouter';
import { RootLayout } from './app/root-layout';
import { AppRouter, preloadRoute } from './app/router';
import { withServerBootstrap, type Bootstrap } from './lib/bootstrap';
import { createQueryClient } from './lib/query-client';

/**
 * Server rendering of one storefront screen (built by `vite build --ssr`, loaded by the server).
 * The markup is what the browser's first render produces from the same embedded data, so the
 * client hydrates it instead of painting from scratch: the first paint needs no JavaScript.
 */
export async function render(pathname: string, search: string, bootstrap: Bootstrap): Promise<string> {
  await preloadRoute(pathname);
  // Each request gets its own cache: nothing one shopper's page loaded leaks into another's.
  const queryClient = createQueryClient();
  try {
    return withServerBootstrap(bootstrap, () =>
      renderToString(
        <StrictMode>
          <QueryClientProvider client={queryClient}>
            <Router ssrPath={pathname} ssrSearch={search}>
              <RootLayout>
                <AppRouter />
              </RootLayout>
            </Router>
          </QueryClientProvider>
        </StrictMode>,
      ),
    );
  } finally {
    queryClient.clear();
  }
}
