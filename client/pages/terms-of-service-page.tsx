import { Link } from 'wouter';
import { useShopSettings } from '../lib/use-shop-settings';
import { SUPPORT_REPLY_HOURS } from '../features/static-pages/contact';
import { PageSection, StaticPageLayout } from '../features/static-pages/static-page-layout';
import { SupportEmailLink } from '../features/static-pages/support-email-link';
import { useDocumentTitle } from '../lib/use-document-title';

const link = 'font-semibold underline underline-offset-4 hover:no-underline';

/**
 * Terms of Service: sensible defaults for a shop of limited, made-to-order pieces. Figures come from
 * the settings (shop name, support address, hold time); the owner edits the wording here.
 */
export default function TermsOfServicePage() {
  const { shopName, holdMinutes } = useShopSettings();
  useDocumentTitle(`Terms of Service | ${shopName}`);
  const mail = <SupportEmailLink />;
  return (
    <StaticPageLayout
      title="Terms of Service"
      eyebrow="The small print, in plain words"
      intro={<p>These terms apply when you buy from {shopName}. By placing an order you accept them.</p>}
    >
      <div className="grid gap-12 lg:grid-cols-2 lg:gap-x-16">
        <PageSection id="orders" title="Orders and stock">
          <p>
            Every design is limited to 50 numbered pieces. Adding a piece to your cart does not reserve it; a
            checkout holds your pieces for {holdMinutes} minutes while you pay. Your order is confirmed when
            payment succeeds and we send the confirmation e-mail with your edition numbers.
          </p>
        </PageSection>
        <PageSection id="prices" title="Prices and payment">
          <p>
            Prices are in US dollars. Shipping, any tax and any discount are shown before you pay. If a
            payment arrives after the last piece was sold, it is refunded in full.
          </p>
        </PageSection>
        <PageSection id="made-to-order" title="Made to order">
          <p>
            Pieces are made after you order, so please check the{' '}
            <Link href="/size-guide" className={link}>
              Size Guide
            </Link>{' '}
            first. Shipping times are on our{' '}
            <Link href="/shipping" className={link}>
              Shipping page
            </Link>
            .
          </p>
        </PageSection>
        <PageSection id="returns" title="Returns">
          <p>
            Returns are covered by our{' '}
            <Link href="/refund-policy" className={link}>
              Refund Policy
            </Link>
            .
          </p>
        </PageSection>
        <PageSection id="privacy" title="Your data">
          <p>
            How we handle your details is set out in our{' '}
            <Link href="/privacy-policy" className={link}>
              Privacy Policy
            </Link>
            .
          </p>
        </PageSection>
        <PageSection id="contact" title="Contact">
          <p>
            Questions about these terms? E-mail {mail}; we reply within {SUPPORT_REPLY_HOURS} hours.
          </p>
        </PageSection>
      </div>
    </StaticPageLayout>
  );
}
