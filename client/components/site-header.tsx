import { Link } from 'wouter';

// Placeholder: the storefront issue completes the header (promo bar, nav, search, cart badge, mobile menu).
export function SiteHeader() {
  return (
    <header className="border-b border-black/10">
      <a href="#main-content" className="sr-only focus:not-sr-only">Skip to content</a>
      <div className="mx-auto flex max-w-7xl items-center justify-between px-4 py-4">
        <Link href="/" className="font-display text-3xl">FIFTY</Link>
      </div>
    </header>
  );
}
