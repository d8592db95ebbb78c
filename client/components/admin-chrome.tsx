import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { useShopSettings } from '../lib/use-shop-settings';

/** The frame of /admin: the shop's name, a way back to the storefront, and the owner's screen. */
export function AdminChrome({ children }: { children: ReactNode }) {
  const { shopName } = useShopSettings();
  return (
    <div className="flex min-h-screen flex-col bg-bone">
      <a
        href="#main-content"
        className="sr-only left-3 top-3 z-50 bg-ink px-4 py-3 text-sm font-semibold uppercase tracking-wide text-paper focus:not-sr-only focus:absolute"
      >
        Skip to content
      </a>
      <header className="border-b-2 border-ink bg-ink text-paper">
        <div className="mx-auto flex h-14 max-w-7xl items-center justify-between gap-4 px-4 md:px-6">
          <p className="font-display text-2xl uppercase tracking-wider">
            {shopName} <span className="text-accent">Admin</span>
          </p>
          <Link href="/" className="text-sm font-semibold underline underline-offset-4 hover:no-underline">
            Back to the shop
          </Link>
        </div>
      </header>
      <main id="main-content" tabIndex={-1} className="flex-1 focus:outline-none">
        {children}
      </main>
    </div>
  );
}
