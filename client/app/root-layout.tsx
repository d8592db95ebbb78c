import type { ReactNode } from 'react';
import { SiteHeader } from '../components/site-header';
import { SiteFooter } from '../components/site-footer';
import { CartSidebar } from '../features/cart/cart-sidebar';
import { NewsletterPopup } from '../features/newsletter/newsletter-popup';
import { Toaster } from '../components/ui/toaster';

export function RootLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader />
      <main id="main-content" tabIndex={-1} className="flex-1 focus:outline-none">
        {children}
      </main>
      <SiteFooter />
      <CartSidebar />
      <NewsletterPopup />
      <Toaster />
    </div>
  );
}
