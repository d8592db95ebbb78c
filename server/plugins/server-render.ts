import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';

type RenderFn = (pathname: string, search: string, bootstrap: Record<string, unknown>) => Promise<string>;

/** Screens whose first render depends on the shopper's session, the admin's or a private link (a draw entry, an order): the browser draws them. */
const CLIENT_ONLY = /^\/(?:checkout|order-success|admin|draw-entry|orders|certificate)(?:\/|$)/;

/** Where scripts/build-client.mjs writes the server-rendering bundle for a client folder. */
export function ssrDirFor(clientDir: string): string {
  return `${clientDir.replace(/[\\/]+$/, '')}-ssr`;
}

export interface ServerRenderer {
  /** The screen's markup for <div id="root">, or '' when the browser should render it alone. */
  render(url: URL, bootstrap: Record<string, unknown>): Promise<string>;
}

/**
 * Loads the storefront's server-rendering bundle built beside the client. Without one (client not
 * built with it) or when a render throws, the page is sent empty and the browser renders it, as
 * before: server rendering speeds up the first paint, it is never needed for a page to work.
 */
export async function loadServerRenderer(clientDir: string, log: FastifyBaseLogger): Promise<ServerRenderer> {
  const entry = path.join(ssrDirFor(clientDir), 'entry-server.js');
  let renderFn: RenderFn | null = null;
  if (fs.existsSync(entry)) {
    try {
      renderFn = ((await import(pathToFileURL(entry).href)) as { render: RenderFn }).render;
    } catch (err) {
      log.warn({ err, entry }, 'server rendering bundle failed to load; pages render in the browser');
    }
  }
  return {
    async render(url, bootstrap) {
      if (!renderFn || CLIENT_ONLY.test(url.pathname)) return '';
      try {
        return await renderFn(url.pathname, url.search.replace(/^\?/, ''), bootstrap);
      } catch (err) {
        log.error({ err, path: url.pathname }, 'server rendering failed; the browser renders the page');
        return '';
      }
    },
  };
}
