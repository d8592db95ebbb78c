import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { ShippingRate } from '../../common/contracts/settings';
import { formatThreshold } from '../../common/domain/shipping';
import { useShopSettings } from '../lib/use-shop-settings';

/** "Express", "1-2 business days", "15.99" → "Express 1-2 Days: $15.99" (figures from the server). */
export function footerRateLine(rate: ShippingRate): string {
  const name = rate.label.replace(/\s*Shipping$/i, '');
  const price = formatThreshold(rate.price);
  if (rate.id === 'international') return `${name}: ${price}`;
  return `${name} ${rate.days.replace(/\s*business days?$/i, ' Days')}: ${price}`;
}

const RATE_ORDER = ['express', 'standard', 'international'] as const;

function Column({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h2 className="type-eyebrow mb-4 text-neutral-400">{title}</h2>
      <ul className="flex flex-col gap-2.5 text-sm text-neutral-200">{children}</ul>
    </div>
  );
}

function FooterLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <li>
      <Link href={href} className="underline-offset-4 hover:text-paper hover:underline">
        {children}
      </Link>
    </li>
  );
}

export function SiteFooter() {
  const { shopName, freeShippingThreshold, shippingRates, supportEmail, socialLinks, season } =
    useShopSettings();
  const rates = RATE_ORDER.map((id) => shippingRates.find((r) => r.id === id)).filter(
    (r): r is ShippingRate => Boolean(r),
  );

  return (
    <footer className="bg-ink text-paper">
      <div className="mx-auto max-w-7xl px-4 pb-10 pt-14 md:px-6 md:pt-20">
        <div className="grid gap-12 lg:grid-cols-[1.4fr_1fr_1.2fr_1fr]">
          <div className="max-w-sm">
            <p className="font-display text-3xl uppercase leading-none tracking-wide">{shopName}</p>
            <p className="mt-4 text-sm leading-relaxed text-neutral-400">
              Limited-edition streetwear made to order. Every design is capped at 50 pieces worldwide and
              never reproduced once it sells out. Sustainable materials, no overstock, no compromises.
            </p>
            {socialLinks.length > 0 && (
              <ul className="mt-6 flex gap-2" aria-label="Social media">
                {socialLinks.map((s) => (
                  <li key={s.label}>
                    <a
                      href={s.href}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="inline-flex h-10 items-center border border-paper/30 px-3 text-sm hover:border-paper"
                    >
                      {s.label}
                      <span className="sr-only"> (opens in a new tab)</span>
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </div>

          <div className="grid grid-cols-2 gap-10 sm:grid-cols-3 lg:col-span-3 lg:grid-cols-[1fr_1.2fr_1fr]">
            <Column title="Shop">
              <FooterLink href="/drops">Drops</FooterLink>
              <FooterLink href="/category/tshirts">T-Shirts</FooterLink>
              <FooterLink href="/category/hoodies">Hoodies</FooterLink>
              <FooterLink href="/category/accessories">Accessories</FooterLink>
              <li>Sale Items</li>
            </Column>
            <Column title="Shipping">
              <FooterLink href="/shipping">Shipping Info &amp; Rates</FooterLink>
              <li>Free Shipping Over {formatThreshold(freeShippingThreshold)}</li>
              {rates.map((r) => (
                <li key={r.id}>{footerRateLine(r)}</li>
              ))}
              <FooterLink href="/mission">Our Mission</FooterLink>
            </Column>
            <Column title="Support">
              <FooterLink href="/size-guide">Size Guide</FooterLink>
              <FooterLink href="/shipping">Shipping</FooterLink>
              <FooterLink href="/refund-policy">Refund Policy</FooterLink>
              <FooterLink href="/refund-policy">Returns</FooterLink>
              <li>
                <a
                  href={`mailto:${supportEmail}`}
                  className="underline-offset-4 hover:text-paper hover:underline"
                >
                  Contact
                </a>
              </li>
            </Column>
          </div>
        </div>

        <div className="mt-14 flex flex-col gap-4 border-t border-paper/15 pt-6 text-xs text-neutral-400 sm:flex-row sm:items-center sm:justify-between">
          {/* The year comes from the shop's settings, like the season in the home page's copy. */}
          <p>
            © {season.year} {shopName}. 50 pieces per design. Never remade.
          </p>
          <ul className="flex gap-6">
            <li>
              <Link href="/privacy-policy" className="underline-offset-4 hover:text-paper hover:underline">
                Privacy Policy
              </Link>
            </li>
            <li>
              <Link href="/terms-of-service" className="underline-offset-4 hover:text-paper hover:underline">
                Terms of Service
              </Link>
            </li>
          </ul>
        </div>
      </div>
    </footer>
  );
}
