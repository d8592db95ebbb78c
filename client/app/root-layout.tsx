import { lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { SiteHeader } from '../components/site-header';
import { useCartDrawerOpen } from '../lib/cart/cart-drawer-store';
import { NewsletterPopup } from '../features/newsletter/newsletter-popup';
import { useToasts } from '../components/ui/use-toast';
import { useLocation } from 'wouter';
import { lazySection } from '../lib/lazy-section';

// The owner's frame: only /admin needs it (boot.tsx loads it before rendering an /admin screen).
const loadAdminChrome = () =>
  import('../components/admin-chrome').then((m) => (AdminChromeLoaded = m.AdminChrome));
let AdminChromeLoaded: ComponentType<{ children: ReactNode }> | null = null;
const AdminChromeLazy = lazy(() => loadAdminChrome().then((c) => ({ default: c })));
export const preloadAdminChrome = (pathname: string) =>
  isAdminPath(pathname) ? loadAdminChrome() : Promise.resolve();
const isAdminPath = (path: string) => path === '/admin' || path.startsWith('/admin/');

// Far below the first screen: server-rendered, hydrated when it comes near (client/lib/lazy-section.tsx).
const SiteFooter = lazySection(() => import('../components/site-footer').then((m) => m.SiteFooter));

// Not needed until the shopper does something: the cart drawer (Radix Dialog and its lines) and the
// toast region (Radix Toast). Their code is fetched on the first press or key anywhere on the page
// (so it is there when the drawer opens), and they mount when first needed.
// The drawer is composed here: the cart feature shows a drop's pass and refusals with the drops feature's parts.
const loadCartSidebar = () =>
  Promise.all([import('../features/cart/cart-sidebar'), import('../features/drops/pass-countdown')]);
const loadToaster = () => import('../components/ui/toaster');
const CartSidebar = lazy(() =>
  loadCartSidebar().then(([cart, drops]) => {
    const parts = { PassNotice: drops.DropPassNotice, Refusal: drops.DropRefusal };
    return { default: () => <cart.CartSidebar drops={parts} /> };
  }),
);
const Toaster = lazy(() => loadToaster().then((m) => ({ default: m.Toaster })));

function Deferred({
  needed,
  load,
  children,
}: {
  needed: boolean;
  load: () => Promise<unknown>;
  children: ReactNode;
}) {
  useEffect(() => {
    const prefetch = () => {
      window.removeEventListener('pointerdown', prefetch, true);
      window.removeEventListener('keydown', prefetch, true);
      void load().catch(() => undefined);
    };
    window.addEventListener('pointerdown', prefetch, { capture: true, passive: true });
    window.addEventListener('keydown', prefetch, true);
    return () => {
      window.removeEventListener('pointerdown', prefetch, true);
      window.removeEventListener('keydown', prefetch, true);
    };
  }, [load]);
  // Once mounted it stays, so a closing animation or a second toast finds it there.
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (needed) setWanted(true);
  }, [needed]);
  if (!wanted && !needed) return null;
  return <Suspense fallback={null}>{children}</Suspense>;
}

export function RootLayout({ children }: { children: ReactNode }) {
  const cartOpen = useCartDrawerOpen();
  const hasToast = useToasts().length > 0;
  const [location] = useLocation();
  // The owner's screens are their own: no promo bar, cart, footer or newsletter offer around them.
  if (isAdminPath(location)) {
    const AdminChrome = AdminChromeLoaded ?? AdminChromeLazy;
    return (
      <Suspense fallback={null}>
        <AdminChrome>
          {children}
          <Deferred needed={hasToast} load={loadToaster}>
            <Toaster />
          </Deferred>
        </AdminChrome>
      </Suspense>
    );
  }
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader />
      <main id="main-content" tabIndex={-1} className="flex-1 focus:outline-none">
        {children}
      </main>
      <SiteFooter />
      <Deferred needed={cartOpen} load={loadCartSidebar}>
        <CartSidebar />
      </Deferred>
      <NewsletterPopup />
      <Deferred needed={hasToast} load={loadToaster}>
        <Toaster />
      </Deferred>
    </div>
  );
}
