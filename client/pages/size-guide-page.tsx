import { Ruler } from 'lucide-react';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../components/ui/tabs';
import { useShopSettings } from '../lib/use-shop-settings';
import { SUPPORT_REPLY_HOURS } from '../features/static-pages/contact';
import { SupportEmailLink } from '../features/static-pages/support-email-link';
import { bags, headwear, hoodieSizes, teeSizes, type GarmentSize } from '../features/static-pages/size-chart';
import { SizeTable } from '../features/static-pages/size-table';
import { ContactBlock, PageSection, StaticPageLayout } from '../features/static-pages/static-page-layout';
import { useDocumentTitle } from '../lib/use-document-title';

const garmentColumns = ['Size', 'Chest (in)', 'Length (in)', 'Sleeve (in)', 'Fit'];
const garmentRows = (sizes: GarmentSize[]) => sizes.map((s) => [s.size, s.chest, s.length, s.sleeve, s.fit]);

const measurements = [
  {
    name: 'Chest / Bust',
    how: 'Measure around the fullest part of your chest, just under your armpits, keeping the tape level across your back. Breathe normally — don’t puff out.',
  },
  {
    name: 'Waist',
    how: 'Measure around your natural waistline, the narrowest part of your torso just above the belly button. Keep one finger between the tape and your body.',
  },
  {
    name: 'Length',
    how: 'Lay your best-fitting tee or hoodie flat and measure from the highest point of the shoulder, beside the collar, straight down to the hem.',
  },
  {
    name: 'Sleeve',
    how: 'For tees, measure from the shoulder seam to the end of the sleeve. For hoodies, measure from the shoulder seam down to the end of the cuff with your arm relaxed.',
  },
];

/** docs/product.md §2 Size guide with the §3 chart as real tables; T-Shirts tab first. */
export default function SizeGuidePage() {
  const { shopName } = useShopSettings();
  useDocumentTitle(`Size Guide | ${shopName}`);
  const mail = <SupportEmailLink />;

  return (
    <StaticPageLayout
      title="Size Guide"
      eyebrow="Find your fit"
      intro={
        <p>
          Measurements for every tee, hoodie and accessory we make, plus how to measure yourself in two
          minutes with a soft tape.
        </p>
      }
    >
      <div className="space-y-14">
        <aside aria-label="Made to order" className="flex gap-4 border-l-2 border-ink bg-bone p-5 sm:p-6">
          <Ruler className="mt-1 h-6 w-6 shrink-0" aria-hidden="true" />
          <div>
            <p className="type-title">Made to order — measure twice</p>
            <p className="mt-2 max-w-3xl leading-relaxed">
              Every piece is made to order in a run of 50, so we can't simply swap it for another size off a
              shelf. Please measure carefully before you order, compare with the charts below, and if you're
              between sizes, size up.
            </p>
          </div>
        </aside>

        <PageSection id="how-to-measure" title="How to measure">
          <p>
            Use a soft tape measure over a thin T-shirt or bare skin, and keep the tape snug but not tight.
          </p>
          <ol className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {measurements.map((m, i) => (
              <li key={m.name} className="border-t border-hairline pt-5">
                <span className="type-mono text-sm text-muted" aria-hidden="true">
                  0{i + 1}
                </span>
                <h3 className="mt-2 text-base font-semibold">{m.name}</h3>
                <p className="mt-2 text-sm leading-relaxed">{m.how}</p>
              </li>
            ))}
          </ol>
        </PageSection>

        <PageSection id="size-charts" title="Size charts">
          <p>
            All measurements are in inches and describe the body the garment is cut for, not the flat garment.
          </p>
          <Tabs defaultValue="tshirts">
            <TabsList aria-label="Size charts by category">
              <TabsTrigger value="tshirts">T-Shirts</TabsTrigger>
              <TabsTrigger value="hoodies">Hoodies</TabsTrigger>
              <TabsTrigger value="accessories">Accessories</TabsTrigger>
            </TabsList>
            <TabsContent value="tshirts">
              <SizeTable
                caption="T-shirt sizes, in inches"
                columns={garmentColumns}
                rows={garmentRows(teeSizes)}
              />
              <p className="mt-4 text-sm text-muted">
                XS and S are cut slim, M and L regular, XL and XXL relaxed.
              </p>
            </TabsContent>
            <TabsContent value="hoodies">
              <SizeTable
                caption="Hoodie sizes, in inches"
                columns={garmentColumns}
                rows={garmentRows(hoodieSizes)}
              />
              <p className="mt-4 text-sm text-muted">
                Hoodies run from fitted (XS) through regular (S, M) to oversized (L and up). Sleeve is
                measured from the shoulder seam to the end of the cuff.
              </p>
            </TabsContent>
            <TabsContent value="accessories" className="space-y-8">
              <div>
                <h3 className="mb-3 text-base font-semibold">Caps &amp; beanies</h3>
                <SizeTable
                  caption="Headwear sizes"
                  columns={['Item', 'Size', 'Fit']}
                  rows={headwear.map((h) => [h.item, h.size, h.fit])}
                />
              </div>
              <div>
                <h3 className="mb-3 text-base font-semibold">Bags &amp; backpacks</h3>
                <SizeTable
                  caption="Bag dimensions, in inches (approximate)"
                  columns={['Item', 'Dimensions (W x H x D)']}
                  rows={bags.map((b) => [b.item, b.dimensions])}
                />
                <p className="mt-3 text-sm text-muted">
                  Dimensions are approximate and can vary slightly from piece to piece.
                </p>
              </div>
              <div>
                <h3 className="mb-3 text-base font-semibold">Skate decks</h3>
                <p className="leading-relaxed">
                  Deck sizes (7.5&quot;, 8.0&quot;, 8.25&quot; and 8.5&quot;) are the board's width. Narrower
                  decks flip faster for technical street skating; wider decks feel more stable on transition
                  and suit bigger feet.
                </p>
              </div>
            </TabsContent>
          </Tabs>
        </PageSection>

        <div className="grid gap-12 lg:grid-cols-2 lg:gap-x-16">
          <PageSection id="styling-tips" title="Styling tips">
            <ul className="list-disc space-y-2 pl-6">
              <li>
                <strong>Classic fit:</strong> take your true size for a tee that sits at the hip with sleeves
                ending mid-bicep.
              </li>
              <li>
                <strong>Boxy street look:</strong> go one size up on tees and let the shoulder seam drop.
              </li>
              <li>
                <strong>Layering:</strong> our hoodies are cut with room for a tee underneath — stay with your
                usual size.
              </li>
              <li>
                <strong>Oversized hoodie:</strong> L and up are already oversized; size up once more only if
                you want it to hang low.
              </li>
            </ul>
          </PageSection>

          <PageSection id="between-sizes" title="Between sizes?">
            <ul className="list-disc space-y-2 pl-6">
              <li>
                <strong>Size up.</strong> Every piece is made to order, and a slightly roomier fit is always
                easier to wear than a tight one.
              </li>
              <li>
                Broad shoulders or long arms? Go by your chest and sleeve measurements rather than your waist.
              </li>
              <li>
                Compare with a piece you already love: lay it flat and check its length against the chart.
              </li>
              <li>Still unsure? Send us your measurements and we'll recommend a size before you order.</li>
            </ul>
          </PageSection>
        </div>

        <ContactBlock title="Need help with sizing?">
          <p>
            E-mail {mail} and we'll reply <strong>within {SUPPORT_REPLY_HOURS} hours</strong>.
          </p>
          <p>
            Please include your measurements — chest, waist, length and sleeve — your height, and the size you
            usually wear, so we can recommend the right fit first time.
          </p>
        </ContactBlock>
      </div>
    </StaticPageLayout>
  );
}
