import type { CatalogService } from '../catalog/catalog.service';
import type { SettingsService } from '../settings/settings.service';

export interface PageHead {
  status: number;
  /** Inner HTML for <head>: title, meta, canonical, JSON-LD. Already escaped. */
  head: string;
  /** Data the client reads before its first render (no fetch waterfall). */
  bootstrap: Record<string, unknown>;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Per-route <head> and bootstrap data, so crawlers and the first paint need no script. */
export function createSeoService(deps: { catalog: CatalogService; settings: SettingsService; publicUrl?: string }) {
  const { settings } = deps;
  return {
    async renderPage(url: URL): Promise<PageHead> {
      const shop = settings.shopName;
      const title = `${shop} — Limited-edition streetwear, 50 pieces per design`;
      const description = 'Limited-edition, sustainable streetwear. Every design is capped at 50 pieces worldwide.';
      const canonical = `${deps.publicUrl ?? url.origin}${url.pathname}`;
      const head = [
        `<title>${escapeHtml(title)}</title>`,
        `<meta name="description" content="${escapeHtml(description)}">`,
        `<link rel="canonical" href="${escapeHtml(canonical)}">`,
      ].join('\n');
      return { status: 200, head, bootstrap: { settings: settings.publicSettings } };
    },
  };
}

export type SeoService = ReturnType<typeof createSeoService>;
