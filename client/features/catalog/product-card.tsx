import { useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import { ArrowRight, X } from 'lucide-react';
import type { Product } from '../../../common/contracts/catalog';
import { displayPrice } from '../../../common/domain/money';
import { firstSentence } from '../../../common/domain/first-sentence';
import { isAvailable } from '../../../common/domain/stock';
import { formatLineOptionsShort, resolveVariant, variantDefaults } from '../../../common/domain/variant';
import type { CartItem } from '../../../common/contracts/cart';
import { ProductImage } from '../../components/product-image';
import { Button, buttonVariants } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { toast } from '../../components/ui/use-toast';
import { queryClient } from '../../lib/query-client';
import { ApiError } from '../../lib/api-client';
import { CART_KEY, toastAddedToCart, useAddToCart } from '../../lib/cart/use-cart';
import { cn } from '../../lib/cn';
import { joinsTheLine } from '../../../common/domain/drop-schedule';
import { sellOutStory } from '../../../common/domain/sell-out';
import { WishlistButton } from '../../components/wishlist-button';
import { DropCountdown, NotifyMeLink } from '../../components/drop-countdown';
import { useNow, useReleaseClock } from '../../lib/release-clock';
import { dropTiming } from '../../lib/use-drops';
import { isCutInSizes, sizesLeft } from '../../lib/size-stock';
import { DrawCardAction } from './draw-card-action';
import { DRAW_SALES_KEY, useDrawSales } from './use-products';

const MAX_SWATCHES = 3;

function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.serverMessage;
  return err instanceof Error ? err.message : 'Something went wrong. Please try again.';
}

export function ProductPrice({
  price,
  salePrice,
  className,
}: {
  price: string;
  salePrice: string | null;
  className?: string;
}) {
  if (!salePrice) return <p className={cn('font-semibold', className)}>{displayPrice(price)}</p>;
  return (
    <p className={cn('flex flex-wrap items-baseline gap-x-2 font-semibold', className)}>
      <span className="text-sale">
        <span className="sr-only">Sale price </span>
        {displayPrice(salePrice)}
      </span>
      <s className="text-sm font-normal text-muted">
        <span className="sr-only">Original price </span>
        {displayPrice(price)}
      </s>
    </p>
  );
}

export interface ProductCardProps {
  product: Product;
  /** Above-the-fold cards load their image eagerly. */
  priority?: boolean;
  className?: string;
  /** heading level for the product name inside the surrounding outline */
  headingLevel?: 'h2' | 'h3';
}

export function ProductCard({ product, priority = false, className, headingLevel = 'h3' }: ProductCardProps) {
  const addToCart = useAddToCart();
  const [pickerOpen, setPickerOpen] = useState(false);
  // The card's picture shows the first colour: it is the one picked unless the shopper changes it.
  const [colour, setColour] = useState<string | null>(product.colors[0]?.name ?? null);
  const nameId = useId();
  const pickerId = useId();
  const addButtonRef = useRef<HTMLButtonElement>(null);
  const release = useReleaseClock(product.releaseAt);
  const soldOut = !isAvailable(product);
  // Inside its drop window a piece is bought through the waiting room: the card leads there instead
  // of an Add to Cart the server would refuse (no pass). Reads the clock only for a drop.
  const now = useNow(product.releaseAt === null || product.soldOutAt !== null ? null : true);
  const inLine = product.releaseAt !== null && !soldOut && joinsTheLine(product, now, dropTiming());
  // Sold by draw (docs/draw.md): from the announcement until the draw has run the card leads to the draw,
  // never to an Add to Cart the server refuses. Until the server's list is known (a page reached in the
  // browser) Add to Cart waits; if the list cannot be read, the server's refusal still stands.
  const drawSales = useDrawSales();
  const drawSale = drawSales.data?.find((d) => d.productId === product.id) ?? null;
  const drawUnknown = drawSales.data === undefined && !drawSales.isError;
  // An order line says what to make (common/domain/variant.ts): what has one option is chosen for the
  // shopper; the picker asks for whatever has more than one.
  const defaults = variantDefaults(product);
  const needsPicker = !resolveVariant(product, defaults).ok;
  const severalSizes = product.sizes.length > 1;
  const severalColours = product.colors.length > 1;
  const image = product.images[0];
  const Heading = headingLevel;
  const extraColours = product.colors.length - MAX_SWATCHES;
  // An edition cut in sizes (ADR 015): the picker greys a sold-out size, read 'M — sold out'.
  const sizeChoices = isCutInSizes(product.sizeStock)
    ? sizesLeft(product.sizes, product.sizeStock!, colour)
    : product.sizes.map((size) => ({ size, left: Infinity }));
  const firstOpenSize = sizeChoices.findIndex((o) => o.left > 0);

  const add = (selectedSize: string | null, selectedColor: string | null) => {
    const cartWasEmpty = (queryClient.getQueryData<CartItem[]>(CART_KEY) ?? []).length === 0;
    addToCart.mutate(
      { productId: product.id, quantity: 1, selectedSize, selectedColor },
      {
        onSuccess: () => {
          if (pickerOpen) closePicker();
          // The drawer opens by itself when the cart was empty; otherwise confirm with a toast.
          if (!cartWasEmpty) {
            const options = formatLineOptionsShort({ selectedSize, selectedColor });
            toastAddedToCart(`${product.name}${options ? ` (${options})` : ''} added to your cart.`);
          }
        },
        onError: (err) => {
          toast({ title: 'Error', description: errorMessage(err), variant: 'destructive' });
          // Refused (a draw made since the list was read, among others): the card asks which pieces are drawn.
          if (err instanceof ApiError && err.status === 409) void queryClient.invalidateQueries({ queryKey: DRAW_SALES_KEY });
        },
      },
    );
  };

  // A single size (e.g. "One Size") and a single colour need no choice: add at once, carrying them.
  const onAddClick = () => {
    if (!needsPicker) add(defaults.size, defaults.color);
    else setPickerOpen((o) => !o);
  };

  const closePicker = () => {
    setPickerOpen(false);
    addButtonRef.current?.focus();
  };

  return (
    <article
      className={cn(
        'group relative flex flex-col bg-white ring-1 ring-black/5 transition-shadow hover:shadow-xl',
        className,
      )}
      aria-labelledby={nameId}
    >
      <div className="relative aspect-square overflow-hidden bg-bone">
        {image ? (
          <ProductImage
            src={image}
            alt=""
            priority={priority}
            className="h-full w-full object-cover transition-transform duration-500 group-hover:scale-105 motion-reduce:transition-none"
          />
        ) : null}
        <div className="absolute left-3 top-3 flex flex-col items-start gap-1.5">
          {product.isNew ? (
            <span className="bg-accent px-2 py-0.5 text-xs font-bold tracking-widest text-ink">NEW</span>
          ) : null}
          {product.isOnSale ? (
            <span className="bg-sale px-2 py-0.5 text-xs font-bold tracking-widest text-white">SALE</span>
          ) : null}
        </div>
        {soldOut ? (
          <span className="absolute inset-x-0 bottom-0 bg-ink/85 py-1.5 text-center text-xs font-bold uppercase tracking-widest text-paper">
            Sold out
          </span>
        ) : null}
        <WishlistButton
          product={product}
          className="absolute right-2 top-2 z-10 h-11 w-11 rounded-full bg-white/90 text-ink shadow-sm hover:bg-white"
        />
      </div>

      <div className="flex flex-1 flex-col gap-2 p-3 sm:p-4">
        <Heading
          id={nameId}
          className="font-display text-lg uppercase leading-tight tracking-wide sm:text-xl"
        >
          {/* The link covers the whole card; the Add to Cart controls sit above it. */}
          <Link
            href={`/product/${product.id}`}
            className="after:absolute after:inset-0 after:content-[''] focus-visible:outline-none focus-visible:after:outline-3 focus-visible:after:outline-offset-2 focus-visible:after:outline-blue-600"
          >
            {product.name}
          </Link>
        </Heading>
        <p className="line-clamp-3 text-xs text-muted sm:text-sm">
          <span className="font-medium text-ink">{product.materials}</span>
          {product.materials && product.description ? ' · ' : null}
          {firstSentence(product.description)}
        </p>
        <ProductPrice price={product.price} salePrice={product.salePrice} className="text-base sm:text-lg" />
        {product.colors.length > 0 ? (
          <ul className="flex items-center gap-1.5" aria-label="Colours">
            {product.colors.slice(0, MAX_SWATCHES).map((c) => (
              <li key={c.name}>
                <span
                  role="img"
                  aria-label={c.name}
                  title={c.name}
                  className="block h-5 w-5 rounded-full ring-1 ring-black/25 ring-offset-1"
                  style={{ backgroundColor: c.value }}
                />
              </li>
            ))}
            {extraColours > 0 ? (
              <li className="text-xs font-semibold text-muted">
                <span aria-hidden="true">+{extraColours}</span>
                <span className="sr-only">and {extraColours} more colours</span>
              </li>
            ) : null}
          </ul>
        ) : null}

        <div className="relative z-10 mt-auto pt-2">
          {drawSale ? (
            <DrawCardAction sale={drawSale} productId={product.id} describedBy={nameId} />
          ) : inLine ? (
            <>
              {!release.released ? <DropCountdown msLeft={release.msLeft} className="mb-2 text-xs sm:text-sm" /> : null}
              <Link
                href={`/product/${product.id}`}
                aria-describedby={nameId}
                className={cn(buttonVariants({ variant: 'default' }), 'w-full px-2 text-xs sm:text-sm')}
              >
                Join the line
                <ArrowRight className="h-4 w-4" aria-hidden="true" />
              </Link>
            </>
          ) : !release.released ? (
            <>
              <DropCountdown msLeft={release.msLeft} className="mb-2 text-xs sm:text-sm" />
              <NotifyMeLink className="w-full px-2 text-xs sm:text-sm" describedBy={nameId} product={product} />
            </>
          ) : soldOut ? (
            <>
              {product.soldOutAt ? (
                <p className="mb-2 text-xs font-semibold sm:text-sm" data-testid="sell-out-story">
                  {sellOutStory(product.editionSize, product.sellOutSeconds)}
                </p>
              ) : null}
              <Button className="w-full px-2 text-xs sm:text-sm" variant="outline" disabled>
                Out of Stock
              </Button>
            </>
          ) : (
            <>
              {pickerOpen ? (
                <div
                  id={pickerId}
                  role="group"
                  aria-label={`Choose ${severalSizes ? 'a size' : 'a colour'} for ${product.name}`}
                  className="absolute inset-x-0 bottom-full mb-2 border-2 border-ink bg-paper p-2 shadow-lg"
                  onKeyDown={(e) => {
                    if (e.key === 'Escape') closePicker();
                  }}
                >
                  <div className="mb-2 flex items-center justify-between">
                    <span className="text-xs font-bold uppercase tracking-widest">
                      {severalSizes ? 'Select size' : 'Select colour'}
                    </span>
                    <button
                      type="button"
                      onClick={closePicker}
                      aria-label={severalSizes ? 'Close size picker' : 'Close colour picker'}
                      className="grid h-8 w-8 place-items-center hover:bg-black/5"
                    >
                      <X className="h-4 w-4" aria-hidden="true" />
                    </button>
                  </div>
                  {severalSizes && severalColours ? (
                    // Colour first (preselected as pictured), then one tap on a size adds.
                    <div role="radiogroup" aria-label="Colour" className="mb-2 flex flex-wrap gap-2">
                      {product.colors.map((c) => (
                        <label key={c.name} className="relative cursor-pointer" title={c.name}>
                          <input
                            type="radio"
                            name={pickerId}
                            value={c.name}
                            checked={colour === c.name}
                            onChange={() => setColour(c.name)}
                            className="peer absolute inset-0 z-10 m-0 h-full w-full cursor-pointer appearance-none rounded-full opacity-0"
                            aria-label={c.name}
                          />
                          <span
                            aria-hidden="true"
                            className="block h-7 w-7 rounded-full border border-black/25 ring-offset-2 ring-offset-paper peer-checked:ring-2 peer-checked:ring-ink peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-blue-600"
                            style={{ backgroundColor: c.value }}
                          />
                        </label>
                      ))}
                    </div>
                  ) : null}
                  <div className="flex flex-wrap gap-1.5">
                    {severalSizes
                      ? sizeChoices.map(({ size, left }, i) =>
                          left <= 0 ? (
                            <button
                              key={size}
                              type="button"
                              disabled
                              className="h-9 min-w-11 cursor-not-allowed border border-neutral-300 bg-neutral-100 px-2 text-sm font-semibold text-neutral-600 line-through"
                            >
                              {size}
                              <span className="sr-only"> — sold out</span>
                            </button>
                          ) : (
                            <button
                              key={size}
                              type="button"
                              autoFocus={i === firstOpenSize}
                              disabled={addToCart.isPending}
                              onClick={() => add(size, colour)}
                              className="h-9 min-w-11 border border-ink bg-white px-2 text-sm font-semibold hover:bg-ink hover:text-paper disabled:opacity-50"
                            >
                              {size}
                            </button>
                          ),
                        )
                      : product.colors.map((c, i) => (
                          <button
                            key={c.name}
                            type="button"
                            autoFocus={i === 0}
                            disabled={addToCart.isPending}
                            onClick={() => add(defaults.size, c.name)}
                            className="flex h-9 items-center gap-1.5 border border-ink bg-white px-2 text-sm font-semibold hover:bg-ink hover:text-paper disabled:opacity-50"
                          >
                            <span
                              aria-hidden="true"
                              className="block h-4 w-4 shrink-0 rounded-full border border-black/25"
                              style={{ backgroundColor: c.value }}
                            />
                            {c.name}
                          </button>
                        ))}
                  </div>
                </div>
              ) : null}
              <Button
                ref={addButtonRef}
                className="w-full px-2 text-xs sm:text-sm"
                aria-describedby={nameId}
                aria-expanded={needsPicker ? pickerOpen : undefined}
                aria-controls={needsPicker && pickerOpen ? pickerId : undefined}
                aria-busy={addToCart.isPending || drawUnknown || undefined}
                disabled={addToCart.isPending || drawUnknown}
                onClick={onAddClick}
              >
                Add to Cart
              </Button>
            </>
          )}
        </div>
      </div>
    </article>
  );
}

export function ProductCardSkeleton() {
  return (
    <div className="flex flex-col bg-white ring-1 ring-black/5">
      <Skeleton className="aspect-square w-full" />
      <div className="flex flex-col gap-2 p-3 sm:p-4">
        <Skeleton className="h-6 w-3/4" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-2/3" />
        <Skeleton className="h-6 w-20" />
        <Skeleton className="mt-2 h-11 w-full" />
      </div>
    </div>
  );
}
