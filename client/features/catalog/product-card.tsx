import { useId } from 'react';
import { Link } from 'wouter';
import { ArrowRight, Plus, X } from 'lucide-react';
import type { Product } from '../../../common/contracts/catalog';
import { displayPrice } from '../../../common/domain/money';
import { firstSentence } from '../../../common/domain/first-sentence';
import { ProductImage } from '../../components/product-image';
import { buttonVariants } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { cn } from '../../lib/cn';
import { WishlistButton } from '../../components/wishlist-button';
import { DropCountdown, NotifyMeLink } from '../../components/drop-countdown';
import { DrawCardAction } from './draw-card-action';
import { useProductCard, type ProductCardModel, type QuickAdd } from './use-product-card';

const MAX_SWATCHES = 3;

export function ProductPrice({
  price,
  salePrice,
  className,
}: {
  price: string;
  salePrice: string | null;
  className?: string;
}) {
  if (!salePrice) return <p className={cn('tabular-nums', className)}>{displayPrice(price)}</p>;
  return (
    <p className={cn('flex flex-wrap items-baseline gap-x-2 tabular-nums', className)}>
      <span className="text-sale">
        <span className="sr-only">Sale price </span>
        {displayPrice(salePrice)}
      </span>
      <s className="text-muted">
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

/** A product in a grid: the piece's state and quick add from useProductCard, drawn by ProductCardView. */
export function ProductCard(props: ProductCardProps) {
  const model = useProductCard(props.product);
  return <ProductCardView {...props} model={model} />;
}

/** Small labels and controls over the picture: a paper chip on the image well, no shadow. */
const OVER_IMAGE = 'bg-surface/90 text-ink';

/**
 * The card as a shopper sees it (docs/product.md §2, Product card): the picture (a second one on hover or by a
 * swipe), name, price and one quiet line (the edition, or when it drops); materials and the first sentence,
 * up to three swatches; the badges, the heart and a small quick add over the picture. The whole card links
 * to the product page; the controls sit above that link.
 */
export function ProductCardView({
  product,
  model,
  priority = false,
  className,
  headingLevel = 'h3',
}: ProductCardProps & { model: ProductCardModel }) {
  const nameId = useId();
  const Heading = headingLevel;
  const extraColours = product.colors.length - MAX_SWATCHES;
  const { action, note, quickAdd } = model;

  return (
    <article className={cn('group relative flex flex-col', className)} aria-labelledby={nameId}>
      <div className="relative aspect-square overflow-hidden bg-bone">
        <CardImages
          href={`/product/${product.id}`}
          image={model.image}
          second={model.secondImage}
          priority={priority}
          dim={model.soldOut}
        />
        {product.isNew || product.isOnSale ? (
          <div className="pointer-events-none absolute left-2 top-2 z-10 flex flex-col items-start gap-1">
            {product.isNew ? <span className={cn(OVER_IMAGE, 'type-eyebrow px-1.5 py-0.5')}>NEW</span> : null}
            {product.isOnSale ? (
              <span className={cn(OVER_IMAGE, 'type-eyebrow px-1.5 py-0.5 text-sale')}>SALE</span>
            ) : null}
          </div>
        ) : null}
        <WishlistButton
          product={product}
          className="absolute right-1 top-1 z-10 h-10 w-10 text-ink hover:bg-surface/70"
        />
        {action.kind === 'add' ? (
          <QuickAddControl product={product} quickAdd={quickAdd} model={model} describedBy={nameId} />
        ) : action.kind === 'sold-out' ? (
          // The spec's 'Out of Stock', as the card's one control: small, in the corner quick add takes.
          <button
            type="button"
            disabled
            className={cn(OVER_IMAGE, 'absolute bottom-2 right-2 z-10 h-8 px-2.5 text-xs font-medium text-muted')}
          >
            Out of Stock
          </button>
        ) : null}
      </div>

      <div className="flex flex-1 flex-col gap-1 pt-3">
        <Heading id={nameId} className="text-sm font-medium leading-snug">
          {/* The link covers the whole card; the controls sit above it. */}
          <Link
            href={`/product/${product.id}`}
            className="after:absolute after:inset-0 after:content-[''] hover:underline hover:underline-offset-4 focus-visible:outline-none focus-visible:after:outline-3 focus-visible:after:outline-offset-2 focus-visible:after:outline-blue-600"
          >
            {product.name}
          </Link>
        </Heading>
        <ProductPrice price={product.price} salePrice={product.salePrice} className="text-sm" />
        <p className="line-clamp-2 text-xs leading-relaxed text-muted">
          {product.materials}
          {product.materials && product.description ? ' · ' : null}
          {firstSentence(product.description)}
        </p>
        <div className="mt-1 flex flex-wrap items-center justify-between gap-x-2 gap-y-1">
          {product.colors.length > 0 ? (
            <ul className="flex items-center gap-1" aria-label="Colours">
              {product.colors.slice(0, MAX_SWATCHES).map((c) => (
                <li key={c.name}>
                  <span
                    role="img"
                    aria-label={c.name}
                    title={c.name}
                    className={cn(
                      'block h-3 w-3 rounded-full border border-black/20',
                      model.colour === c.name && 'ring-1 ring-ink ring-offset-1 ring-offset-paper',
                    )}
                    style={{ backgroundColor: c.value }}
                  />
                </li>
              ))}
              {extraColours > 0 ? (
                <li className="pl-0.5 text-xs text-muted">
                  <span aria-hidden="true">+{extraColours}</span>
                  <span className="sr-only">and {extraColours} more colours</span>
                </li>
              ) : null}
            </ul>
          ) : null}
          <p
            className="type-mono truncate text-[11px] text-muted"
            data-testid={note.kind === 'sold-out' ? 'sell-out-story' : undefined}
          >
            {note.kind === 'drop' && product.releaseAt ? <time dateTime={product.releaseAt}>{note.text}</time> : note.text}
          </p>
        </div>

        {action.kind === 'draw' ? (
          <div className="relative z-10 mt-2">
            <DrawCardAction sale={action.sale} productId={product.id} describedBy={nameId} />
          </div>
        ) : action.kind === 'line' ? (
          <div className="relative z-10 mt-2 flex flex-wrap items-center gap-x-3 gap-y-1">
            <Link
              href={`/product/${product.id}`}
              aria-describedby={nameId}
              className={cn(buttonVariants({ variant: 'live', size: 'sm' }), 'px-3')}
            >
              Join the line
              <ArrowRight className="h-4 w-4" aria-hidden="true" />
            </Link>
            {action.msLeft !== null ? <DropCountdown msLeft={action.msLeft} className="type-mono text-xs font-normal" /> : null}
          </div>
        ) : action.kind === 'upcoming' ? (
          <div className="relative z-10 mt-2 flex flex-wrap items-center gap-x-3 gap-y-1">
            <NotifyMeLink
              className={cn(buttonVariants({ variant: 'secondary', size: 'sm' }), 'px-3')}
              describedBy={nameId}
              product={product}
            />
            <DropCountdown msLeft={action.msLeft} className="type-mono text-xs font-normal" />
          </div>
        ) : null}
      </div>
    </article>
  );
}

/**
 * The picture, and a second one when the product has it: on a device that hovers it fades in over the
 * first; on touch the two sit in a strip that snaps from one to the other. A link of its own (hidden from
 * assistive technology: the name's link says it) so a tap on the picture opens the product, and a swipe
 * scrolls the strip rather than the card's covering link.
 */
function CardImages({
  href,
  image,
  second,
  priority,
  dim,
}: {
  href: string;
  image: string | null;
  second: string | null;
  priority: boolean;
  dim: boolean;
}) {
  if (!image) return null;
  const img = 'h-full w-full object-cover';
  if (!second)
    return (
      <ProductImage src={image} alt="" priority={priority} className={cn(img, dim && 'opacity-60')} />
    );
  return (
    <Link
      href={href}
      tabIndex={-1}
      aria-hidden="true"
      className={cn(
        'scroll-strip relative z-[1] flex h-full snap-x snap-mandatory overflow-x-auto pointer-fine:overflow-hidden',
        dim && 'opacity-60',
      )}
    >
      <ProductImage src={image} alt="" priority={priority} className={cn(img, 'shrink-0 snap-start')} />
      <ProductImage
        src={second}
        alt=""
        className={cn(
          img,
          'shrink-0 snap-start pointer-fine:absolute pointer-fine:inset-0 pointer-fine:opacity-0 pointer-fine:transition-opacity pointer-fine:duration-300 pointer-fine:group-hover:opacity-100 motion-reduce:transition-none',
        )}
      />
    </Link>
  );
}

/**
 * Quick add (DESIGN.md, Sizes): a small control on the picture's corner. On a product with sizes it opens a
 * compact size picker over the picture (one tap on a size adds one unit, no navigation); one size and one
 * colour add at once.
 */
function QuickAddControl({
  product,
  model,
  quickAdd,
  describedBy,
}: {
  product: Product;
  model: ProductCardModel;
  quickAdd: QuickAdd;
  describedBy: string;
}) {
  const pickerId = useId();
  const { asks, pickerOpen } = quickAdd;
  const busy = quickAdd.pending || quickAdd.waiting;
  return (
    <>
      {pickerOpen && asks ? (
        <CardPicker id={pickerId} product={product} model={model} quickAdd={quickAdd} asks={asks} />
      ) : null}
      <button
        ref={quickAdd.addButtonRef}
        type="button"
        aria-label="Add to Cart"
        title="Add to Cart"
        aria-describedby={describedBy}
        aria-expanded={asks ? pickerOpen : undefined}
        aria-controls={asks && pickerOpen ? pickerId : undefined}
        aria-busy={busy || undefined}
        disabled={busy}
        onClick={quickAdd.onAddClick}
        className={cn(
          buttonVariants({ variant: 'primary', size: 'icon' }),
          // Under the picker while it is open (its own close button is in view); focus comes back here.
          'absolute bottom-2 right-2 z-10 h-9 w-9 bg-surface text-ink hover:bg-ink hover:text-paper',
        )}
      >
        <Plus className="h-4 w-4" aria-hidden="true" />
      </button>
    </>
  );
}

function CardPicker({
  id,
  product,
  model,
  quickAdd,
  asks,
}: {
  id: string;
  product: Product;
  model: ProductCardModel;
  quickAdd: QuickAdd;
  asks: 'size' | 'colour';
}) {
  const chip =
    'h-9 min-w-10 border border-hairline-strong bg-surface px-2 text-sm font-medium hover:border-ink focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:opacity-50';
  return (
    <div
      id={id}
      role="group"
      aria-label={`Choose ${asks === 'size' ? 'a size' : 'a colour'} for ${product.name}`}
      className="absolute inset-x-0 bottom-0 z-20 border-t border-hairline bg-paper/95 p-2"
      onKeyDown={(e) => {
        if (e.key === 'Escape') quickAdd.closePicker();
      }}
    >
      <div className="mb-1.5 flex items-center justify-between">
        <span className="type-eyebrow text-muted">{asks === 'size' ? 'Select size' : 'Select colour'}</span>
        <button
          type="button"
          onClick={quickAdd.closePicker}
          aria-label={asks === 'size' ? 'Close size picker' : 'Close colour picker'}
          className="-my-1 -mr-1 grid h-8 w-8 place-items-center text-ink hover:bg-black/5 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
        >
          <X className="h-4 w-4" aria-hidden="true" />
        </button>
      </div>
      {quickAdd.chooseColourFirst ? (
        // Colour first (preselected as pictured), then one tap on a size adds.
        <div role="radiogroup" aria-label="Colour" className="mb-2 flex flex-wrap gap-2">
          {product.colors.map((c) => (
            <label key={c.name} className="relative cursor-pointer" title={c.name}>
              <input
                type="radio"
                name={id}
                value={c.name}
                checked={model.colour === c.name}
                onChange={() => model.setColour(c.name)}
                className="peer absolute inset-0 z-10 m-0 h-full w-full cursor-pointer appearance-none rounded-full opacity-0"
                aria-label={c.name}
              />
              <span
                aria-hidden="true"
                className="block h-6 w-6 rounded-full border border-black/20 ring-offset-2 ring-offset-paper peer-checked:ring-1 peer-checked:ring-ink peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-blue-600"
                style={{ backgroundColor: c.value }}
              />
            </label>
          ))}
        </div>
      ) : null}
      <div className="flex flex-wrap gap-1">
        {asks === 'size'
          ? quickAdd.sizeChoices.map(({ size, left }, i) =>
              left <= 0 ? (
                <button
                  key={size}
                  type="button"
                  disabled
                  className="h-9 min-w-10 cursor-not-allowed border border-hairline bg-bone px-2 text-sm text-muted line-through"
                >
                  {size}
                  <span className="sr-only"> — sold out</span>
                </button>
              ) : (
                <button
                  key={size}
                  type="button"
                  autoFocus={i === quickAdd.firstOpenSize}
                  disabled={quickAdd.pending}
                  onClick={() => quickAdd.add(size, model.colour)}
                  className={chip}
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
                disabled={quickAdd.pending}
                onClick={() => quickAdd.add(quickAdd.defaultSize, c.name)}
                className={cn(chip, 'flex items-center gap-1.5')}
              >
                <span
                  aria-hidden="true"
                  className="block h-3.5 w-3.5 shrink-0 rounded-full border border-black/20"
                  style={{ backgroundColor: c.value }}
                />
                {c.name}
              </button>
            ))}
      </div>
    </div>
  );
}

export function ProductCardSkeleton() {
  return (
    <div className="flex flex-col">
      <Skeleton className="aspect-square w-full" />
      <div className="flex flex-col gap-2 pt-3">
        <Skeleton className="h-4 w-3/4" />
        <Skeleton className="h-4 w-16" />
        <Skeleton className="h-3 w-full" />
        <Skeleton className="h-3 w-1/2" />
      </div>
    </div>
  );
}
