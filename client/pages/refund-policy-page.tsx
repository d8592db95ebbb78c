import {
  ContactBlock,
  PageSection,
  StaticPageLayout,
  StatList,
} from '../features/static-pages/static-page-layout';
import { SUPPORT_REPLY_HOURS } from '../features/static-pages/contact';
import { SupportEmailLink } from '../features/static-pages/support-email-link';
import { useShopSettings } from '../lib/use-shop-settings';
import { useDocumentTitle } from '../lib/use-document-title';

const mail = <SupportEmailLink />;

/** docs/product.md §2 Refund policy: every term written out, with the figures of §9. */
export default function RefundPolicyPage() {
  const { shopName } = useShopSettings();
  useDocumentTitle(`Refund Policy | ${shopName}`);
  return (
    <StaticPageLayout
      title="Refund Policy"
      eyebrow="Returns & store credit"
      intro={
        <p>
          Every piece we sell is made to order in a run of no more than 50. That keeps waste close to zero,
          and it also means our returns work a little differently from a fast-fashion shop. Here is exactly
          how it works — no fine print.
        </p>
      }
    >
      <div className="space-y-12">
        <StatList
          items={[
            { value: '2 days', label: 'to request a return' },
            { value: '7 days', label: 'to ship it back' },
            { value: '1 year', label: 'store credit validity' },
            { value: `${SUPPORT_REPLY_HOURS} hrs`, label: 'support reply time' },
          ]}
        />

        <div className="grid gap-12 lg:grid-cols-2 lg:gap-x-16">
          <PageSection id="request-return" title="Requesting a return">
            <p>
              Send your return request by e-mail to {mail} within{' '}
              <strong>2 days of receiving your order</strong>. Requests made after that window can't be
              accepted, so please try everything on as soon as it arrives.
            </p>
            <p>
              Include your order number, the item you'd like to return, the size you received and a short note
              on why it isn't right. Photos help us answer faster. Please don't send anything back before your
              return has been approved — parcels that arrive without an approval can't be processed.
            </p>
          </PageSection>

          <PageSection id="ship-back" title="Shipping your return">
            <p>
              Once we approve your request, you'll receive the return address and instructions by e-mail. An
              approved return must be <strong>shipped back within 7 days</strong> of the approval.
            </p>
            <p>
              The customer pays for return shipping. We recommend a tracked service: we can't issue credit for
              a parcel that never reaches us. Keep your proof of postage until your store credit has been
              issued.
            </p>
          </PageSection>

          <PageSection id="condition" title="Condition of items">
            <p>To be accepted, returned items must be:</p>
            <ul className="list-disc space-y-1 pl-6">
              <li>unworn — tried on indoors only;</li>
              <li>unwashed, and free of stains, odours, make-up, pet hair and smoke;</li>
              <li>returned with all original tags still attached, ideally in the original packaging.</li>
            </ul>
            <p>
              Every return is inspected when it reaches our studio. Items that don't meet these conditions
              will be sent back to you at your expense.
            </p>
          </PageSection>

          <PageSection id="store-credit" title="Refunds as store credit">
            <p>
              Approved returns are refunded as <strong>store credit only</strong>; we don't refund to the
              original card or in cash. Your credit is issued to the e-mail address on the order once the
              inspection is complete, and it is <strong>valid for 1 year</strong> from the day it is issued.
            </p>
            <p>
              Store credit works on every drop, including limited editions, and can be combined with other
              items in one order. Unused credit expires after the year is up.
            </p>
          </PageSection>

          <PageSection id="shipping-fees" title="Shipping fees">
            <p>
              Original shipping fees are <strong>non-refundable</strong>, including express and international
              delivery charges. Return shipping is paid by the customer in every case.
            </p>
          </PageSection>

          <PageSection id="non-returnable" title="Non-returnable items">
            <p>
              Some pieces can't be returned at all — for example final-sale items and one-off collaborations.
              Whenever an item is non-returnable we <strong>mark it as such on its listing</strong>, so you
              always know before you buy. Non-returnable items can't be exchanged either.
            </p>
          </PageSection>

          <PageSection id="processing" title="Processing times">
            <p>
              Orders <strong>ship within 2-3 business days</strong>, because every piece is made to order.
              You'll receive a tracking number by e-mail as soon as your parcel leaves us. Returns are
              inspected and credited within a few business days of arriving.
            </p>
          </PageSection>

          <PageSection id="damaged" title="Damaged or wrong item?">
            <p>
              If something arrives damaged or isn't what you ordered, e-mail {mail} within 2 days of receiving
              it with your order number and a photo. We'll put it right as a priority.
            </p>
          </PageSection>
        </div>

        <ContactBlock title="Questions about a return?">
          <p>
            E-mail {mail}. Our support team replies <strong>within {SUPPORT_REPLY_HOURS} hours</strong>.
          </p>
        </ContactBlock>
      </div>
    </StaticPageLayout>
  );
}
