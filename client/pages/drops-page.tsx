import type { Product } from '../../common/contracts/catalog';
import { listDrops } from '../../common/domain/drop-schedule';
import { editionRangeText } from '../../common/domain/edition-copy';
import { Breadcrumb } from '../components/breadcrumb';
import { ProductCard, ProductCardSkeleton } from '../features/catalog/product-card';
import { useNow } from '../lib/release-clock';
import { dropTiming, useDrops } from '../lib/use-drops';
import { useShopSettings } from '../lib/use-shop-settings';
import { useDocumentTitle } from '../lib/use-document-title';

function DropSection({
  id,
  title,
  lead,
  products,
  empty,
}: {
  id: string;
  title: string;
  lead: string;
  products: readonly Product[];
  empty: string;
}) {
  return (
    <section aria-labelledby={`${id}-title`} className="py-10 md:py-14">
      <p className="text-xs font-bold uppercase tracking-[0.3em] text-muted">{lead}</p>
      <h2 id={`${id}-title`} className="mt-2 font-display text-4xl uppercase leading-none md:text-6xl">
        {title}
      </h2>
      {products.length === 0 ? (
        <p className="mt-6 text-sm text-muted">{empty}</p>
      ) : (
        <ul className="mt-8 grid grid-cols-2 gap-4 md:gap-6 lg:grid-cols-4">
          {products.map((p) => (
            <li key={p.id} className="flex">
              <ProductCard product={p} className="w-full" />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** /drops: what is live now, what drops next, and how fast past editions sold out. */
export default function DropsPage() {
  const { shopName } = useShopSettings();
  useDocumentTitle(`Drops | ${shopName}`);
  const drops = useDrops();
  const now = useNow((drops.data ?? []).some((p) => p.releaseAt !== null && p.soldOutAt === null));
  const listing = drops.data ? listDrops(drops.data, now, dropTiming()) : null;
  // The editions on this page, from the drops themselves ('3 to 50 pieces'), not a number written here.
  const editions = editionRangeText((drops.data ?? []).map((p) => p.editionSize));
  return (
    <div className="mx-auto max-w-7xl px-4 pb-16 md:px-6">
      <div className="pt-6">
        <Breadcrumb items={[{ label: 'Home', href: '/' }, { label: 'Drops' }]} />
      </div>
      <h1 className="mt-6 font-display text-6xl uppercase leading-none md:text-8xl">Drops</h1>
      <p className="mt-4 max-w-2xl text-base text-neutral-700 md:text-lg">
        {editions ? `Every design is one drop: a numbered edition of ${editions}, never made again.` : 'Every design is one drop: a numbered edition, never made again.'}{' '}
        When a drop goes live, join the line on its page: the waiting room lets shoppers in fairly, a few at a time.
      </p>
      {!listing ? (
        <ul className="mt-10 grid grid-cols-2 gap-4 md:gap-6 lg:grid-cols-4" aria-label="Loading drops">
          {[0, 1, 2, 3].map((i) => (
            <li key={i}>
              <ProductCardSkeleton />
            </li>
          ))}
        </ul>
      ) : (
        <>
          <DropSection id="live" lead="Join the line" title="Live now" products={listing.live} empty="No drop is live right now." />
          <DropSection
            id="upcoming"
            lead="Set a reminder"
            title="Upcoming"
            products={listing.upcoming}
            empty="The next drop is not announced yet. When it is, Notify me on its page e-mails you as its waiting room opens."
          />
          <DropSection id="past" lead="How fast they went" title="Past drops" products={listing.past} empty="No past drops yet." />
        </>
      )}
    </div>
  );
}
