import { Crown, Hash, Users } from 'lucide-react';
import { Link } from 'wouter';
import { buttonVariants } from '../components/ui/button';
import { useShopSettings } from '../lib/use-shop-settings';
import { SUPPORT_REPLY_HOURS } from '../features/static-pages/contact';
import { SupportEmailLink } from '../features/static-pages/support-email-link';
import {
  ContactBlock,
  PageSection,
  StaticPageLayout,
  StatList,
} from '../features/static-pages/static-page-layout';
import { useDocumentTitle } from '../lib/use-document-title';

const values = [
  {
    icon: Crown,
    title: 'Ultra-Exclusive',
    text: 'No design is ever made more than 50 times, worldwide. When you wear one, you are one of fifty people on the planet who can say the same.',
  },
  {
    icon: Hash,
    title: 'Limited Edition',
    text: 'Every piece is made to order and numbered. Once a design sells out it is retired for good — no restocks, no reissues, no reproductions.',
  },
  {
    icon: Users,
    title: 'Underground Community',
    text: 'We build for the people who find us, not for an algorithm: skaters, artists, night-shift workers and collectors who care how things are made.',
  },
];

// Only what the shop does: the welcome code, the edition numbers, the room-open mail and the fair draw.
const elite = [
  'A 10% welcome code when you join the newsletter',
  'Your own edition number on every piece you own',
  'A mail the moment a drop’s waiting room opens: tap Notify me on its page',
  'A fair start on drop day: everyone in the room before the release gets a random place in line',
];

/** docs/product.md §2 Mission. */
export default function MissionPage() {
  const { shopName } = useShopSettings();
  useDocumentTitle(`Our Mission | ${shopName}`);
  const mail = <SupportEmailLink />;

  return (
    <StaticPageLayout
      title="Our Mission"
      eyebrow={`About ${shopName}`}
      intro={
        <p>
          We make streetwear worth keeping. Every design is capped at 50 pieces worldwide, made to order, and
          never reproduced once it sells out — so nothing gets overproduced, nothing gets dumped, and what you
          wear stays yours.
        </p>
      }
    >
      <div className="space-y-16">
        <section aria-labelledby="values-heading">
          <h2 id="values-heading" className="type-heading">
            What we stand for
          </h2>
          <ul className="mt-6 grid gap-4 md:grid-cols-3">
            {values.map(({ icon: Icon, title, text }) => (
              <li
                key={title}
                className="flex flex-col border-t border-hairline pt-6"
              >
                <span className="flex h-10 w-10 items-center justify-center border border-hairline-strong">
                  <Icon className="h-5 w-5" aria-hidden="true" />
                </span>
                <h3 className="type-title mt-5">{title}</h3>
                <p className="mt-3 leading-relaxed text-muted">{text}</p>
              </li>
            ))}
          </ul>
        </section>

        <div className="grid gap-12 lg:grid-cols-2 lg:gap-x-16">
          <PageSection id="philosophy" title="Our philosophy">
            <p>
              Fashion's biggest problem is simple: too much of everything. Brands guess how many pieces will
              sell, make far more, and burn or bury what's left. We start from the other end. Nothing is cut
              until someone orders it, and no design ever goes past fifty.
            </p>
            <p>
              Scarcity here isn't a marketing trick; it's the production plan. It lets us spend more on every
              garment — heavier organic cotton, recycled fleece, better print work — and it means the piece
              you buy won't show up on every street corner next season.
            </p>
            <p>Less stuff, made better, worn longer. That's the whole idea.</p>
          </PageSection>

          <PageSection id="join-the-elite" title="Join the Elite">
            <p>Fifty pieces don't last long. Here is how to be there when they drop:</p>
            <ul className="space-y-3">
              {elite.map((item) => (
                <li key={item} className="flex gap-3">
                  <span className="mt-2 h-2.5 w-2.5 shrink-0 bg-ink" aria-hidden="true" />
                  <span>{item}</span>
                </li>
              ))}
            </ul>
            <Link href="/" className={buttonVariants({ className: 'mt-2' })}>
              Shop the latest drop
            </Link>
          </PageSection>
        </div>

        <section aria-labelledby="looking-forward-heading" className="bg-ink p-6 text-paper sm:p-10">
          <h2 id="looking-forward-heading" className="type-heading">
            Looking Forward
          </h2>
          <p className="mt-4 max-w-3xl leading-relaxed text-neutral-300">
            We'll keep dropping small, keep making to order, and keep every run at fifty. The numbers we hold
            ourselves to:
          </p>
          <div className="mt-8">
            <StatList
              tone="dark"
              items={[
                { value: '50', label: 'Maximum pieces per design' },
                { value: '0', label: 'Restocks, ever' },
                { value: '100%', label: 'Made to order' },
                { value: `${SUPPORT_REPLY_HOURS}h`, label: 'Support reply time' },
              ]}
            />
          </div>
        </section>

        <ContactBlock title="Talk to us">
          <p>
            Questions, collaborations or just want to say hello? E-mail {mail} — a real person replies{' '}
            <strong>within {SUPPORT_REPLY_HOURS} hours</strong>.
          </p>
        </ContactBlock>
      </div>
    </StaticPageLayout>
  );
}
