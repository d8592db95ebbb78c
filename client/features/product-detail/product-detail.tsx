import { useState, type ComponentType, type ReactNode } from 'react';
import { colorImageIndex } from '../../../common/domain/color-image';
import { AlertTriangle, Leaf, RotateCcw, Share2, Truck } from 'lucide-react';
import { FINAL_SALE_LINE, restockCopy, returnAssurance } from '../../../common/domain/return-policy';
import { WishlistButton } from '../../components/wishlist-button';
import type { LiveStock, Product } from '../../../common/contracts/catalog';
import { displayPrice, formatUsd } from '../../../common/domain/money';
import { formatCountdown } from '../../../common/domain/release';
import { IN_CHECKOUTS_TEXT, sellOutStory, stockLeftText } from '../../../common/domain/sell-out';
import { formatThreshold } from '../../../common/domain/shipping';
import { isAvailable } from '../../../common/domain/stock';
import { editionBadgeText, editionNoticeText, editionRestockText } from '../../../common/domain/edition-copy';
import { resolveVariant, variantDefaults } from '../../../common/domain/variant';
import { Breadcrumb } from '../../components/breadcrumb';
import { AbroadShippingLine, useShipsAbroad } from '../../components/free-shipping-scope';
import { Button } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { toast } from '../../components/ui/use-toast';
import { cn } from '../../lib/cn';
import { DropCountdown, NotifyMeLink, ReleaseTime } from '../../components/drop-countdown';
import { useReleaseClock } from '../../lib/release-clock';
import { ColorSwatches } from './color-swatches';
import { ProductGallery } from './product-gallery';
import { addToCartLabel, canAddToCart, savingsCents } from './purchase-rules';
import { QuantityStepper } from './quantity-stepper';
import { NotifyMeButton } from '../../components/notify-me';
import { SizeSelect } from './size-select';
import { SizeStockPicker } from './size-stock-picker';
import { isCutInSizes, leftOfSize, sizesLeft } from '../../lib/size-stock';
import { ClaimNotice } from './claim-notice';
import { useLiveStock } from './use-live-stock';

const SIZE_SELECT_ID = 'product-size';

/**
 * The size a shopper picked on the server-rendered page before its script took over (a slow phone, a
 * shopper quick to the picker on drop day): hydration would reset the picker to the render's "no size",
 * so the first render reads what the page shows. null on the server and when nothing was picked.
 */
function sizePickedBeforeHydration(sizes: readonly string[]): string | null {
  if (typeof document === 'undefined') return null;
  const picker = document.getElementById(SIZE_SELECT_ID);
  const value =
    picker instanceof HTMLSelectElement
      ? picker.value
      : (picker?.querySelector<HTMLInputElement>('input[type="radio"]:checked')?.value ?? '');
  return value && sizes.includes(value) ? value : null;
}

export interface AddToCartRequest {
  productId: string;
  quantity: number;
  selectedSize: string | null;
  selectedColor: string | null;
}

interface ProductDetailProps {
  product: Product;
  categoryName: string;
  /** Server setting, e.g. "60.00" (docs/product.md §10: one threshold everywhere). */
  freeShippingThreshold: string;
  onAddToCart: (req: AddToCartRequest) => void;
  adding: boolean;
  /**
   * Wraps the purchase controls: a drop's waiting room takes their place while its room is open (ADR 010).
   * The page supplies it (the drops feature's DropGate); features do not import each other.
   */
  PurchaseGate: ComponentType<{
    productId: string;
    releaseAt: string | null;
    children: ReactNode;
    /** The phone bar's name-and-price row, for a waiting room's own bar. */
    barLead?: ReactNode;
  }>;
  /**
   * A product sold by draw: the draw's panel (the draws feature's, supplied by the page) takes the place of
   * the purchase controls while the draw runs (docs/draw.md); `drawNote` sits above them once it is over.
   */
  drawPanel?: ReactNode;
  drawNote?: ReactNode;
  /**
   * Whether the product is sold by draw is not known yet (the browser is asking): the purchase area waits
   * in a neutral state, so a drawn piece never offers Add to Cart, not even for a moment.
   */
  drawPending?: boolean;
}

function Badge({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex items-center px-2.5 py-1 text-xs font-bold uppercase tracking-wider',
        className,
      )}
    >
      {children}
    </span>
  );
}

async function shareProduct(name: string): Promise<void> {
  const url = window.location.href;
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title: name, url });
      return;
    } catch (err) {
      // The shopper closed the share sheet: nothing to report.
      if (err instanceof DOMException && err.name === 'AbortError') return;
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    toast({ title: 'Link copied', description: 'The product link is on your clipboard.' });
  } catch {
    toast({ title: 'Share', description: url });
  }
}

/** 'N of 50 left' while pieces remain; 'Sold out' and, once the edition is gone, how it ended. */
function StockLine({ stock, drop }: { stock: LiveStock; drop: boolean }) {
  if (stock.inStock)
    return (
      <p className="mt-3 text-sm font-bold uppercase tracking-wide" data-testid="stock-left">
        {stockLeftText(stock.left, stock.editionSize)}
      </p>
    );
  // A drop's last pieces in checkouts are not sold out: one may come back for the line. An ordinary
  // product keeps 'Sold out' while its last piece is held (its Notify me takes a returned piece).
  if (stock.inCheckouts && drop)
    return (
      <p className="mt-3 text-sm font-bold" data-testid="stock-left">
        {IN_CHECKOUTS_TEXT}
      </p>
    );
  return (
    <p className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1" data-testid="stock-left">
      <Badge className="bg-ink text-paper">Sold out</Badge>
      {stock.soldOutAt && (
        <span className="text-sm font-bold">{sellOutStory(stock.editionSize, stock.sellOutSeconds)}</span>
      )}
    </p>
  );
}

/** The purchase area while the product's draw is being asked for: its footprint, nothing to press. */
function PurchaseAreaLoading() {
  return (
    <div role="status" className="grid gap-3" data-testid="purchase-loading">
      <span className="sr-only">Loading purchase options</span>
      <Skeleton className="h-11 w-full" />
      <Skeleton className="h-12 w-full" />
    </div>
  );
}

export function ProductDetail({
  product,
  categoryName,
  freeShippingThreshold,
  onAddToCart,
  adding,
  PurchaseGate,
  drawPanel: givenDrawPanel,
  drawNote,
  drawPending = false,
}: ProductDetailProps) {
  // While the draw is unknown the purchase controls give way, as to a draw's panel.
  const drawPanel = drawPending ? <PurchaseAreaLoading /> : givenDrawPanel;
  // The free-shipping promise is the home country's (ADR 023): a shopper abroad is told so.
  const shipsAbroad = useShipsAbroad();
  const [imageIndex, setImageIndex] = useState(0);
  // One size ('One Size') is chosen for the shopper (common/domain/variant.ts); so is the pictured
  // (first) colour, so an order line always says what to make.
  const [chosenSize, setSize] = useState<string | null>(
    () => sizePickedBeforeHydration(product.sizes) ?? variantDefaults(product).size,
  );
  const [color, setColor] = useState<string | null>(product.colors[0]?.name ?? null);
  const [quantity, setQuantity] = useState(1);

  // Before its release the product shows a countdown and Notify me; it flips at the release second.
  const release = useReleaseClock(product.releaseAt);
  // Stock is live (ADR 011): server-rendered, then followed over an event stream.
  const live = useLiveStock(product);
  // An edition cut in sizes (ADR 015): each size with its own pieces, live; a size that sells out while
  // chosen is no longer the choice (the shopper picks again). One pool: the size list as before.
  const sizeOptions = isCutInSizes(live.stock.sizeStock)
    ? sizesLeft(product.sizes, live.stock.sizeStock!, color)
    : null;
  const size = sizeOptions && leftOfSize(sizeOptions, chosenSize) <= 0 ? null : chosenSize;
  const stocked = { ...product, stock: live.stock.left, inStock: live.stock.inStock };
  const purchasable = isAvailable(stocked);
  const enabled = canAddToCart(stocked, { size, color }) && !adding;
  // No size yet: Add to Cart stays tappable (aria-disabled) and takes the shopper to the size picker instead.
  const variant = resolveVariant(product, { size, color });
  const needsSize = purchasable && !variant.ok && variant.field === 'size';
  const [sizeNudge, setSizeNudge] = useState(false);
  const pickSize = () => {
    setSizeNudge(true);
    if (sizeOptions) {
      const picker = document.getElementById(SIZE_SELECT_ID);
      const first = picker?.querySelector<HTMLInputElement>('input[type="radio"]:not(:disabled)');
      picker?.scrollIntoView({ block: 'center' });
      first?.focus();
      return;
    }
    const select = document.getElementById(SIZE_SELECT_ID) as HTMLSelectElement | null;
    if (!select) return;
    select.scrollIntoView({ block: 'center' });
    select.focus();
    try {
      select.showPicker?.();
    } catch {
      /* not allowed here (no user activation, or an older browser): focused is enough */
    }
  };
  const savings = savingsCents(product);
  // The phone bar's first row: one thin line, the name (cut with an ellipsis) and the price (the page's
  // heading and price say both in full, so the row is hidden from assistive technology).
  const barLead = (
    <p className="flex min-w-0 items-baseline justify-between gap-3 text-xs leading-4" aria-hidden="true">
      <span className="truncate font-medium">{product.name}</span>
      <span className={cn('shrink-0 font-semibold tabular-nums', product.salePrice !== null && 'text-sale')}>
        {displayPrice(product.salePrice ?? product.price)}
      </span>
    </p>
  );

  const chooseColor = (name: string) => {
    setColor(name);
    // The colour's own image when it has one (common/domain/color-image.ts: the cart shows the same).
    const i = colorImageIndex(product, name);
    if (i >= 0) setImageIndex(i);
  };

  return (
    // Bottom padding on phones: room for the fixed purchase bar.
    <div className="mx-auto max-w-7xl px-4 pt-6 pb-28 sm:px-6 lg:px-8 lg:py-10 max-lg:has-[[data-room-bar]]:pb-40">
      <Breadcrumb
        className="mb-6"
        items={[
          { label: 'Home', href: '/' },
          { label: categoryName, href: `/category/${product.category}` },
          { label: product.name },
        ]}
      />
      <div className="grid gap-8 lg:grid-cols-2 lg:gap-14">
        <div className="lg:sticky lg:top-24 lg:self-start">
          <ProductGallery
            name={product.name}
            images={product.images}
            activeIndex={imageIndex}
            onSelect={setImageIndex}
          />
        </div>

        <div className="flex min-w-0 flex-col gap-6">
          <div className="flex flex-wrap gap-2">
            {product.isNew && <Badge className="border border-ink text-ink">NEW</Badge>}
            {product.isOnSale && <Badge className="bg-sale text-white">SALE</Badge>}
            <Badge className="border border-hairline text-ink">{editionBadgeText(product.editionSize)}</Badge>
            <Badge className="border border-hairline text-success">
              <Leaf className="mr-1 h-3.5 w-3.5" aria-hidden="true" />
              Sustainable
            </Badge>
          </div>

          <div>
            <h1 className="font-display text-4xl leading-none uppercase sm:text-5xl lg:text-6xl">
              {product.name}
            </h1>
            <StockLine stock={live.stock} drop={product.releaseAt !== null} />
            <p className="sr-only" aria-live="polite" aria-atomic="true">
              {live.announcement}
            </p>
            <div className="mt-4 flex flex-wrap items-center gap-3">
              {product.salePrice !== null ? (
                <>
                  <p className="text-3xl font-bold text-sale">
                    <span className="sr-only">Sale price </span>
                    {displayPrice(product.salePrice)}
                  </p>
                  <p className="text-xl text-muted line-through">
                    <span className="sr-only">Original price </span>
                    {displayPrice(product.price)}
                  </p>
                  {savings !== null && (
                    <Badge className="bg-sale text-white">Save {formatUsd(savings)}</Badge>
                  )}
                </>
              ) : (
                <p className="text-3xl font-bold">{displayPrice(product.price)}</p>
              )}
            </div>
          </div>

          {!release.released && product.releaseAt && (
            <div className="border border-hairline bg-surface p-4" data-testid="drop-countdown">
              <DropCountdown msLeft={release.msLeft} className="text-2xl font-semibold tabular-nums" />
              <p id="release-note" className="mt-1 text-sm text-muted">
                On sale from <ReleaseTime releaseAt={product.releaseAt} className="font-semibold text-ink" />.
              </p>
            </div>
          )}
          {/* A note, not an alarm: the warning's quiet colours (the accent is the live state's). */}
          <div className="flex gap-3 border-l-2 border-warn bg-warn-soft p-4">
            <AlertTriangle className="mt-0.5 h-5 w-5 shrink-0 text-warn" aria-hidden="true" />
            <div className="text-sm">
              <p className="font-semibold">{editionNoticeText(product.editionSize)}</p>
              <p className="mt-1">{editionRestockText(product.editionSize)}</p>
              {product.nonReturnable && <p className="mt-1 font-semibold">{FINAL_SALE_LINE}</p>}
            </div>
          </div>

          <p className="text-base leading-relaxed text-neutral-800">{product.description}</p>

          <div className="flex flex-col gap-5 border-t border-black/10 pt-6">
            {drawPanel}
            {drawNote}
            {!drawPanel && product.colors.length > 0 && (
              <ColorSwatches colors={product.colors} value={color} onChange={chooseColor} />
            )}
            {drawPanel ? null : sizeOptions ? (
              <div className="flex flex-col gap-2">
                <SizeStockPicker
                  id={SIZE_SELECT_ID}
                  sizes={sizeOptions}
                  value={size}
                  onChange={(next) => {
                    setSize(next);
                    setSizeNudge(false);
                  }}
                  disabled={!purchasable}
                  describedBy={needsSize ? 'size-hint' : undefined}
                />
                {/* A size gone while others sell: "tell me if an M comes back" (ADR 015). */}
                {purchasable && sizeOptions.some((o) => o.left <= 0) && (
                  <NotifyMeButton
                    productId={product.id}
                    productName={product.name}
                    sizeStock={live.stock.sizeStock!}
                    label="Notify me if a sold-out size comes back"
                    variant="link"
                    className="h-auto self-start px-0 py-1"
                  />
                )}
              </div>
            ) : (
              product.sizes.length > 0 && (
                <SizeSelect
                  sizes={product.sizes}
                  value={size}
                  onChange={(next) => {
                    setSize(next);
                    if (next) setSizeNudge(false);
                  }}
                  disabled={!purchasable}
                  selectId={SIZE_SELECT_ID}
                  describedBy={needsSize ? 'size-hint' : undefined}
                />
              )
            )}
            {!drawPanel && (
              <>
                <QuantityStepper
                  value={quantity}
                  onChange={setQuantity}
                  disabled={!purchasable}
                  product={product}
                />

                {/* The one Add to Cart button: on phones it rides in a bar fixed to the bottom of the screen,
                so it stays reachable while the shopper reads or scrolls. The bar is three thin layers: name and
                price, the state (before the release, the countdown), one full-width action. A drop's waiting
                room brings a bar of its own (data-room-bar, the same layers, its state for the row in between):
                this one then stays in the page and lends it its name-and-price row (`barLead`). */}
                <div
                  data-testid="purchase-bar"
                  className="group/bar fixed inset-x-0 bottom-0 z-30 flex flex-col gap-1.5 border-t border-hairline bg-paper px-4 pt-2 pb-2.5 lg:static lg:z-auto lg:border-0 lg:bg-transparent lg:p-0 max-lg:has-[[data-room-bar]]:static max-lg:has-[[data-room-bar]]:border-0 max-lg:has-[[data-room-bar]]:bg-transparent max-lg:has-[[data-room-bar]]:p-0"
                >
                  <div className="group-has-[[data-room-bar]]/bar:hidden lg:hidden">{barLead}</div>
                  {/* Phones: the countdown is the bar's state line, always in view (the spoken timer is the one above). */}
                  {!release.released && product.releaseAt && (
                    <p
                      className="text-xs font-semibold tabular-nums group-has-[[data-room-bar]]/bar:hidden lg:hidden"
                      aria-hidden="true"
                      data-testid="bar-countdown"
                    >
                      {formatCountdown(release.msLeft)}
                    </p>
                  )}
                  {/* A drop's waiting room takes the controls' place while its room is open (ADR 010). */}
                  <PurchaseGate productId={product.id} releaseAt={product.releaseAt} barLead={barLead}>
                    {!release.released ? (
                      <NotifyMeLink
                        className="h-12 w-full px-3"
                        describedBy="release-note"
                        product={product}
                        label="Notify me when it drops"
                      />
                    ) : (
                      <Button
                        size="lg"
                        variant="default"
                        className="w-full px-3"
                        disabled={!enabled && !needsSize}
                        aria-disabled={needsSize || undefined}
                        aria-describedby={needsSize ? 'size-hint' : undefined}
                        onClick={() =>
                          needsSize
                            ? pickSize()
                            : onAddToCart({
                                productId: product.id,
                                quantity,
                                selectedSize: size,
                                selectedColor: color,
                              })
                        }
                      >
                        {addToCartLabel(stocked, quantity)}
                      </Button>
                    )}
                  </PurchaseGate>
                </div>
                {release.released && needsSize && (
                  <p
                    id="size-hint"
                    role={sizeNudge ? 'alert' : undefined}
                    className={cn(
                      'text-sm lg:-mt-3',
                      sizeNudge ? 'font-semibold text-red-700' : 'text-muted',
                    )}
                  >
                    Choose a size to add this piece to your cart.
                  </p>
                )}
                {release.released && !purchasable && (
                  <NotifyMeLink
                    className="h-auto min-h-12 w-full whitespace-normal px-3"
                    // The sizes come from the page's live stock (what is left of each size, ADR 015).
                    product={{ ...product, sizeStock: live.stock.sizeStock ?? product.sizeStock }}
                    label={restockCopy.notifyLabel}
                  />
                )}
              </>
            )}
            <ClaimNotice productId={product.id} />

            <div className="grid grid-cols-2 gap-3">
              <WishlistButton
                product={product}
                withText
                className="h-11 border-2 border-ink px-3 text-sm font-semibold hover:bg-ink hover:text-paper"
              />
              <Button variant="outline" onClick={() => void shareProduct(product.name)}>
                <Share2 className="h-4 w-4" aria-hidden="true" />
                Share
              </Button>
            </div>
          </div>

          <div className="grid gap-6 border-t border-black/10 pt-6 sm:grid-cols-2">
            <section aria-labelledby="materials-heading">
              <h2 id="materials-heading" className="font-display text-xl uppercase">
                Materials
              </h2>
              <p className="mt-2 text-sm leading-relaxed text-neutral-800">{product.materials}</p>
            </section>
            <section aria-labelledby="sustainability-heading">
              <h2 id="sustainability-heading" className="font-display text-xl uppercase">
                Sustainability
              </h2>
              <p className="mt-2 text-sm leading-relaxed text-neutral-800">{product.sustainabilityInfo}</p>
            </section>
          </div>

          <ul className="grid gap-3 border-t border-black/10 pt-6 sm:grid-cols-3" aria-label="Our promise">
            <li className="flex items-start gap-3">
              <Truck className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
              <span className="text-sm">
                <strong className="block">Free shipping over {formatThreshold(freeShippingThreshold)}</strong>
                {shipsAbroad ? (
                  <AbroadShippingLine className="text-muted" />
                ) : (
                  <span className="text-muted">
                    On orders of {formatThreshold(freeShippingThreshold)} and above
                  </span>
                )}
              </span>
            </li>
            <li className="flex items-start gap-3">
              <RotateCcw className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
              {/* A final sale promises no return: the assurance would contradict the listing. */}
              {product.nonReturnable ? (
                <span className="text-sm">
                  <strong className="block">Final sale</strong>
                  <span className="text-muted">Marked at listing as non-returnable</span>
                </span>
              ) : (
                <span className="text-sm">
                  <strong className="block">{returnAssurance.title}</strong>
                  <span className="text-muted">{returnAssurance.detail}</span>
                </span>
              )}
            </li>
            <li className="flex items-start gap-3">
              <Leaf className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
              <span className="text-sm">
                <strong className="block">Carbon neutral delivery</strong>
                <span className="text-muted">Every parcel offset</span>
              </span>
            </li>
          </ul>
        </div>
      </div>
    </div>
  );
}
