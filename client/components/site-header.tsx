import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { Heart, Menu, Search, ShoppingBag, X } from 'lucide-react';
import { cartDrawer } from '../lib/cart/cart-drawer-store';
import { useCartCount } from '../lib/cart/cart-query';
import { useShopSettings } from '../lib/use-shop-settings';
import { cn } from '../lib/cn';

export const NAV_LINKS = [
  { href: '/drops', label: 'Drops' },
  { href: '/category/tshirts', label: 'T-Shirts' },
  { href: '/category/hoodies', label: 'Hoodies' },
  { href: '/category/accessories', label: 'Accessories' },
  { href: '/mission', label: 'About' },
] as const;

/** docs/product.md §5: trimmed; blank is ignored (null); otherwise the URL-encoded search route. */
export function searchHref(raw: string): string | null {
  const q = raw.trim();
  return q ? `/search?q=${encodeURIComponent(q)}` : null;
}

function SearchForm({
  className,
  inputClassName,
  label,
}: {
  className?: string;
  inputClassName?: string;
  label: string;
}) {
  const [location, navigate] = useLocation();
  const search = useSearch();
  // On the search page the box shows what was searched for; elsewhere it starts empty.
  const query = location === '/search' ? (new URLSearchParams(search).get('q') ?? '') : '';
  const [value, setValue] = useState(query);
  const inputId = useId();
  useEffect(() => {
    setValue(query);
  }, [query]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const href = searchHref(value);
    if (href) navigate(href);
  };

  return (
    <form role="search" aria-label={label} onSubmit={submit} className={cn('relative', className)}>
      <label htmlFor={inputId} className="sr-only">
        Search products
      </label>
      <input
        id={inputId}
        type="search"
        name="q"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        placeholder="Search drops…"
        autoComplete="off"
        enterKeyHint="search"
        className={cn(
          'h-10 w-full border border-hairline-strong bg-surface pl-3 pr-11 text-sm text-ink placeholder:text-neutral-500 hover:border-ink focus-visible:border-ink focus-visible:outline-3 focus-visible:outline-offset-0 focus-visible:outline-blue-600',
          inputClassName,
        )}
      />
      <button
        type="submit"
        aria-label="Submit search"
        className="absolute right-0 top-0 grid h-10 w-10 place-items-center text-muted hover:text-ink"
      >
        <Search className="h-4 w-4" aria-hidden="true" />
      </button>
    </form>
  );
}

export function SiteHeader() {
  // The season comes from the settings, as the home page's collection line does: they cannot disagree.
  const { shopName, season } = useShopSettings();
  const count = useCartCount();
  const [menuOpen, setMenuOpen] = useState(false);
  const [location] = useLocation();
  const menuId = useId();

  // A route change (link, back button, search) always closes the mobile menu.
  useEffect(() => {
    setMenuOpen(false);
  }, [location]);

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setMenuOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  const isActive = (href: string) => location === href;

  return (
    // Sticky at every width; on phones the promo bar (h-8) slides under the top edge so the logo,
    // menu and cart stay on screen without taking more of it than needed.
    <header className="sticky -top-8 z-40 bg-paper md:top-0">
      <a
        href="#main-content"
        className="sr-only left-3 top-3 z-50 bg-ink px-4 py-3 text-sm font-medium text-paper focus:not-sr-only focus:absolute"
      >
        Skip to content
      </a>
      <div className="flex h-8 items-center justify-center overflow-hidden whitespace-nowrap bg-ink px-3 text-center text-[11px] font-medium uppercase tracking-[0.12em] text-paper sm:text-xs sm:tracking-[0.16em] md:h-9">
        <p>
          <span className="hidden sm:inline">{season.name} drop: </span>
          <span>15% off</span> everything with code{' '}
          <span className="border border-paper/50 px-1.5 py-0.5 font-mono font-semibold tracking-normal">FALL15</span>
        </p>
      </div>

      <div className="border-b border-hairline">
        <div className="mx-auto flex h-16 max-w-7xl items-center gap-3 px-4 md:h-20 md:gap-4 md:px-6 lg:gap-6">
          <button
            type="button"
            className="-ml-2 grid h-11 w-11 place-items-center md:hidden"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            onClick={() => setMenuOpen((o) => !o)}
          >
            {menuOpen ? (
              <X className="h-6 w-6" aria-hidden="true" />
            ) : (
              <Menu className="h-6 w-6" aria-hidden="true" />
            )}
          </button>

          <Link href="/" className="font-display text-[1.75rem] uppercase leading-none tracking-wide md:text-3xl">
            {shopName}
            <span className="sr-only"> home</span>
          </Link>

          <nav aria-label="Main" className="ml-2 hidden md:block lg:ml-4">
            <ul className="flex items-center gap-4 lg:gap-7">
              {NAV_LINKS.map((l) => (
                <li key={l.href}>
                  <Link
                    href={l.href}
                    aria-current={isActive(l.href) ? 'page' : undefined}
                    className={cn(
                      'relative whitespace-nowrap py-2 text-sm font-medium after:absolute after:inset-x-0 after:-bottom-0.5 after:h-px after:origin-left after:scale-x-0 after:bg-ink after:transition-transform hover:after:scale-x-100',
                      isActive(l.href) && 'after:scale-x-100',
                    )}
                  >
                    {l.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>

          <div className="ml-auto flex items-center gap-2">
            <SearchForm label="Search" className="hidden w-36 md:block lg:w-72" />
            <Link
              href="/wishlist"
              aria-label="Wishlist"
              aria-current={isActive('/wishlist') ? 'page' : undefined}
              className="grid h-11 w-11 place-items-center hover:opacity-70"
            >
              <Heart className="h-5 w-5" strokeWidth={1.75} aria-hidden="true" />
            </Link>
            <button
              type="button"
              onClick={() => cartDrawer.toggle()}
              aria-label={
                count > 0 ? `Shopping cart, ${count} ${count === 1 ? 'item' : 'items'}` : 'Shopping cart'
              }
              className="relative -mr-2 grid h-11 w-11 place-items-center hover:opacity-70"
            >
              <ShoppingBag className="h-5 w-5" strokeWidth={1.75} aria-hidden="true" />
              {count > 0 ? (
                <span
                  data-testid="cart-count"
                  aria-hidden="true"
                  className="absolute right-0.5 top-1 grid h-[1.125rem] min-w-[1.125rem] place-items-center rounded-full bg-ink px-1 text-[11px] font-semibold leading-none text-paper tabular-nums"
                >
                  {count > 99 ? '99+' : count}
                </span>
              ) : null}
            </button>
          </div>
        </div>

        <div className="px-4 pb-3 md:hidden">
          <SearchForm label="Search" />
        </div>
      </div>

      <div id={menuId} hidden={!menuOpen} className="border-b border-hairline bg-paper md:hidden">
        <nav aria-label="Mobile">
          <ul className="flex flex-col px-4 py-2">
            {NAV_LINKS.map((l) => (
              <li key={l.href} className="border-b border-hairline last:border-b-0">
                <Link
                  href={l.href}
                  onClick={() => setMenuOpen(false)}
                  aria-current={isActive(l.href) ? 'page' : undefined}
                  className="block py-4 text-lg font-medium"
                >
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
}
