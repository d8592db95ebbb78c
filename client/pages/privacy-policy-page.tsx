import { useShopSettings } from '../lib/use-shop-settings';
import { SUPPORT_REPLY_HOURS } from '../features/static-pages/contact';
import { PageSection, StaticPageLayout } from '../features/static-pages/static-page-layout';
import { SupportEmailLink } from '../features/static-pages/support-email-link';
import { useDocumentTitle } from '../lib/use-document-title';

/**
 * Privacy Policy: sensible defaults for a small shop. The shop name and support address come from
 * the settings (SHOP_NAME, SUPPORT_EMAIL); the owner edits the wording here.
 */
export default function PrivacyPolicyPage() {
  const { shopName, holdMinutes } = useShopSettings();
  useDocumentTitle(`Privacy Policy | ${shopName}`);
  const mail = <SupportEmailLink />;
  return (
    <StaticPageLayout
      title="Privacy Policy"
      eyebrow="Your data"
      intro={
        <p>
          {shopName} collects only what it needs to make and deliver your order and to answer you. We never
          sell your data, and you can ask us to delete it at any time.
        </p>
      }
    >
      <div className="grid gap-12 lg:grid-cols-2 lg:gap-x-16">
        <PageSection id="what-we-collect" title="What we collect">
          <p>
            When you order: your name, e-mail address, phone number (if you give one) and shipping address,
            and the items you bought. When you join the newsletter: your e-mail address.
          </p>
          <p>
            Card details go straight to our payment provider and never reach our servers; we keep only the
            payment reference needed to match your order.
          </p>
        </PageSection>
        <PageSection id="why-we-use-it" title="Why we use it">
          <p>
            To make, ship and support your order; to send your order confirmation, shipping updates and, if
            you signed up, our newsletter and your welcome code. Nothing else.
          </p>
        </PageSection>
        <PageSection id="cookies" title="Cookies">
          <p>
            We set one cookie, which keeps your cart and checkout together while you shop (stock in a checkout
            is held for {holdMinutes} minutes). There are no advertising or tracking cookies.
          </p>
        </PageSection>
        <PageSection id="sharing" title="Who we share it with">
          <p>
            Only the services that deliver your order: our payment provider, our e-mail provider and the
            carrier that ships your parcel. Each receives just what it needs for that job.
          </p>
        </PageSection>
        <PageSection id="retention" title="How long we keep it">
          <p>
            Order records are kept as long as tax and accounting law requires. Newsletter addresses are kept
            until you unsubscribe or ask us to delete them.
          </p>
        </PageSection>
        <PageSection id="your-rights" title="Your rights">
          <p>
            You can ask for a copy of your data, for corrections or for deletion. E-mail {mail} and we'll
            reply within {SUPPORT_REPLY_HOURS} hours.
          </p>
        </PageSection>
      </div>
    </StaticPageLayout>
  );
}
