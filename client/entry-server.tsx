import { renderToString } from 'react-dom/server';
import { Router } from 'wouter';
import { AppTree } from './app/app-tree';
import { preloadRoute } from './app/router';
import { preloadSections } from './lib/lazy-section';
import { withServerBootstrap, type Bootstrap } from './lib/bootstrap';
import { createQueryClient } from './lib/query-client';

/**
 * Server rendering of one storefront screen (built by `vite build --ssr`, loaded by the server).
 * The markup is what the browser's first render produces from the same embedded data, so the
 * client hydrates it instead of painting from scratch: the first paint needs no JavaScript.
 */
export async function render(pathname: string, search: string, bootstrap: Bootstrap): Promise<string> {
  await preloadRoute(pathname);
  await preloadSections();
  // Each request gets its own cache: nothing one shopper's page loaded leaks into another's.
  const queryClient = createQueryClient();
  try {
    return withServerBootstrap(bootstrap, () =>
      renderToString(
        <Router ssrPath={pathname} ssrSearch={search}>
          <AppTree client={queryClient} />
        </Router>,
      ),
    );
  } finally {
    queryClient.clear();
  }
}
