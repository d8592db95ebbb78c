import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { SiteHeader } from '../components/site-header';
import { SiteFooter } from '../components/site-footer';
import { AdminChrome } from '../components/admin-chrome';
import { useCartDrawerOpen } from '../features/cart/cart-drawer-store';
import { NewsletterPopup } from '../features/newsletter/newsletter-popup';
import { useToasts } from '../components/ui/use-toast';
import { useLocation } from 'wouter';

// Not needed for the first paint: the cart drawer (Radix Dialog and its lines) and the toast region
// (Radix Toast) load when first needed or when the browser is idle, keeping them out of the entry chunk.
const CartSidebar = lazy(() => import('../features/cart/cart-sidebar').then((m) => ({ default: m.CartSidebar })));
const Toaster = lazy(() => import('../components/ui/toaster').then((m) => ({ default: m.Toaster })));

function Deferred({ needed, children }: { needed: boolean; children: ReactNode }) {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    const onIdle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 2000));
    onIdle(() => setIdle(true));
  }, []);
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (needed || idle) setWanted(true);
  }, [needed, idle]);
  if (!wanted && !needed) return null;
  return <Suspense fallback={null}>{children}</Suspense>;
}

export function RootLayout({ children }: { children: ReactNode }) {
  const cartOpen = useCartDrawerOpen();
  const hasToast = useToasts().length > 0;
  const [location] = useLocation();
  // The owner's screens are their own: no promo bar, cart, footer or newsletter offer around them.
  if (location === '/admin' || location.startsWith('/admin/')) {
    return (
      <AdminChrome>
        {children}
        <Deferred needed={hasToast}>
          <Toaster />
        </Deferred>
      </AdminChrome>
    );
  }
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader />
      <main id="main-content" tabIndex={-1} className="flex-1 focus:outline-none">
        {children}
      </main>
      <SiteFooter />
      <Deferred needed={cartOpen}>
        <CartSidebar />
      </Deferred>
      <NewsletterPopup />
      <Deferred needed={hasToast}>
        <Toaster />
      </Deferred>
    </div>
  );
}
