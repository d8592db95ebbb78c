import { Clock, Globe, Package, PackageCheck, ShieldAlert, Truck } from 'lucide-react';
import type { ShippingRate } from '../../common/contracts/settings';
import { displayPrice } from '../../common/domain/money';
import { useShopSettings } from '../lib/use-shop-settings';
import { SUPPORT_REPLY_HOURS } from '../features/static-pages/contact';
import { SupportEmailLink } from '../features/static-pages/support-email-link';
import { PageSection, StaticPageLayout } from '../features/static-pages/static-page-layout';
import { useDocumentTitle } from '../lib/use-document-title';

function wholeDollars(value: string): string {
  const s = displayPrice(value);
  return s.endsWith('.00') ? s.slice(0, -3) : s;
}

function RateCard({ rate, note }: { rate: ShippingRate; note?: string }) {
  return (
    <li className="flex flex-col border border-hairline bg-surface p-5">
      <h3 className="text-base font-semibold">{rate.label}</h3>
      <p className="mt-3 text-3xl leading-none font-semibold tracking-tight tabular-nums">{displayPrice(rate.price)}</p>
      <p className="mt-2 text-sm">{rate.days}</p>
      {note && <p className="mt-2 text-sm text-muted">{note}</p>}
    </li>
  );
}

/** docs/product.md §2 Shipping page; every figure comes from the server's settings (docs/product.md §10: one table). */
export default function ShippingPage() {
  const settings = useShopSettings();
  useDocumentTitle(`Shipping Information | ${settings.shopName}`);
  const threshold = wholeDollars(settings.freeShippingThreshold);
  const domestic = settings.shippingRates.filter((r) => r.id !== 'international');
  const international = settings.shippingRates.find((r) => r.id === 'international');
  const mail = <SupportEmailLink />;

  return (
    <StaticPageLayout
      title="Shipping Information"
      eyebrow="Delivery & rates"
      intro={
        <p>
          Made to order, packed by hand, shipped carbon neutral. Orders of {threshold} and above ship free;
          everything you need to know about rates, timing and tracking is below.
        </p>
      }
    >
      <div className="space-y-14">
        <PageSection id="shipping-options" title="Shipping options">
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {domestic.map((r) => (
              <RateCard key={r.id} rate={r} />
            ))}
            <li className="flex flex-col border border-ink bg-surface p-5">
              <h3 className="text-base font-semibold">Free Shipping</h3>
              <p className="mt-3 text-3xl leading-none font-semibold tracking-tight tabular-nums">$0.00</p>
              <p className="mt-2 text-sm">On orders of {threshold} and above</p>
              <p className="mt-2 text-sm">Applied automatically at checkout.</p>
            </li>
          </ul>
          <p>
            Rates are per order, not per item. Delivery times are counted in business days from the day your
            order ships, not the day it's placed.
          </p>
        </PageSection>

        <div className="grid gap-12 lg:grid-cols-2 lg:gap-x-16">
          <PageSection id="international" title="International delivery">
            <div className="flex gap-4">
              <Globe className="mt-1 h-6 w-6 shrink-0" aria-hidden="true" />
              <div className="space-y-3">
                {international && (
                  <p>
                    <strong>
                      {international.label}: {displayPrice(international.price)}
                    </strong>{' '}
                    — {international.days}, excluding customs and taxes.
                  </p>
                )}
                <p>
                  We ship limited editions worldwide. Import duties, customs fees and local taxes are set by
                  the destination country, aren't included in our price and are paid by the recipient on
                  delivery.
                </p>
              </div>
            </div>
          </PageSection>

          <PageSection id="processing-time" title="Processing time">
            <div className="flex gap-4">
              <Clock className="mt-1 h-6 w-6 shrink-0" aria-hidden="true" />
              <ul className="list-disc space-y-2 pl-5">
                <li>
                  <strong>In-stock items</strong> ship within 1-2 business days.
                </li>
                <li>
                  <strong>Limited drops</strong> are made to order and ship within 2-3 business days.
                </li>
                <li>
                  Orders placed <strong>after 2 PM EST</strong> ship the next business day.
                </li>
              </ul>
            </div>
          </PageSection>

          <PageSection id="packaging" title="Packaging">
            <div className="flex gap-4">
              <Package className="mt-1 h-6 w-6 shrink-0" aria-hidden="true" />
              <div className="space-y-3">
                <p>
                  Every piece is folded by hand and shipped in recycled, plastic-free packaging that you can
                  recycle again at home.
                </p>
                <p>
                  Every delivery is carbon neutral: we offset the emissions of each parcel, whichever option
                  you choose.
                </p>
              </div>
            </div>
          </PageSection>

          <PageSection id="tracking" title="Order tracking & support">
            <div className="flex gap-4">
              <Truck className="mt-1 h-6 w-6 shrink-0" aria-hidden="true" />
              <div className="space-y-3">
                <p>
                  As soon as your parcel leaves us, we send a <strong>tracking number by e-mail</strong> so
                  you can follow it all the way to your door.
                </p>
                <p>
                  Questions about a delivery? E-mail {mail} — our support team replies{' '}
                  <strong>within {SUPPORT_REPLY_HOURS} hours</strong>.
                </p>
              </div>
            </div>
          </PageSection>
        </div>

        <PageSection id="important-information" title="Important information">
          <div className="grid gap-4 md:grid-cols-2">
            <div>
              <h3 className="flex items-center gap-2 text-base font-semibold">
                <PackageCheck className="h-5 w-5" aria-hidden="true" />
                Delivery requirements
              </h3>
              <ul className="mt-3 list-disc space-y-2 pl-5">
                <li>
                  A <strong>signature is required</strong> for orders over $200.
                </li>
                <li>
                  Please make sure someone can receive the parcel, or choose an address where it can be signed
                  for.
                </li>
              </ul>
            </div>
            <div>
              <h3 className="flex items-center gap-2 text-base font-semibold">
                <ShieldAlert className="h-5 w-5" aria-hidden="true" />
                Restrictions
              </h3>
              <ul className="mt-3 list-disc space-y-2 pl-5">
                <li>
                  We <strong>can't deliver limited editions to P.O. Boxes</strong>; please use a street
                  address.
                </li>
                <li>
                  <strong>Address changes</strong> are possible only{' '}
                  <strong>within 1 hour of ordering</strong>. E-mail {mail} with your order number as soon as
                  possible.
                </li>
              </ul>
            </div>
          </div>
        </PageSection>
      </div>
    </StaticPageLayout>
  );
}
