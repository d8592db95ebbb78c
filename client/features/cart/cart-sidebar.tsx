import type { ComponentType } from 'react';
import { imageForColor } from '../../../common/domain/color-image';
import { Minus, Plus, ShoppingBag } from 'lucide-react';
import { useLocation } from 'wouter';
import type { CartItem } from '../../../common/contracts/cart';
import { formatUsd, parseMoney } from '../../../common/domain/money';
import { itemCount, lineTotalCents, pricedLine, subtotalCents } from '../../../common/domain/pricing';
import { amountToFreeShipping, formatThreshold } from '../../../common/domain/shipping';
import { AbroadShippingLine, useShipsAbroad } from '../../components/free-shipping-scope';
import { ProductImage } from '../../components/product-image';
import { Button } from '../../components/ui/button';
import { Sheet, SheetContent, SheetTitle } from '../../components/ui/sheet';
import { Skeleton } from '../../components/ui/skeleton';
import { useShopSettings } from '../../lib/use-shop-settings';
import { cartDrawer, useCartDrawerOpen } from '../../lib/cart/cart-drawer-store';
import {
  itemCountLabel,
} from './cart-totals';
import { useCart, useClearCart, useRemoveCartItem, useUpdateCartItem } from '../../lib/cart/use-cart';
import { formatLineOptions } from '../../../common/domain/variant';
import { SoldOutSizeWayForward } from '../../lib/cart/sold-out-size';

type DropLines = ReadonlyArray<{ productId: string; product: { name: string } }>;

/**
 * A drop's pieces in the cart (ADR 010): the pass timer above the lines, and a refused change told with
 * the way forward. The app supplies them (the drops feature's DropPassNotice and DropRefusal).
 */
export interface CartDropParts {
  PassNotice: ComponentType<{ lines: DropLines; className?: string }>;
  Refusal: ComponentType<{ error: unknown; lines: DropLines; fallback: string; className?: string }>;
}

/** docs/product.md §2 cart sidebar: a right slide-over dialog titled 'Shopping Cart'. */
export function CartSidebar({ drops }: { drops: CartDropParts }) {
  const open = useCartDrawerOpen();
  const { data: items, isPending } = useCart();
  const lines = items ?? [];

  return (
    <Sheet open={open} onOpenChange={cartDrawer.setOpen}>
      <SheetContent
        side="right"
        closeLabel="Close cart"
        aria-describedby={undefined}
        // Land on the dialog itself (announced as 'Shopping Cart'), not on a stepper button.
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          (event.currentTarget as HTMLElement | null)?.focus();
        }}
        className="w-full min-[400px]:w-[400px] sm:w-[540px]"
      >
        <div className="flex items-center gap-3 border-b border-hairline px-5 py-4 pr-16">
          <ShoppingBag className="h-5 w-5 shrink-0" strokeWidth={1.75} aria-hidden="true" />
          <SheetTitle className="type-title">
            Shopping Cart
          </SheetTitle>
        </div>

        {isPending ? (
          <div className="space-y-4 p-5" role="status">
            <span className="sr-only">Loading cart</span>
            {[0, 1].map((i) => (
              <Skeleton key={i} className="h-24 w-full" />
            ))}
          </div>
        ) : lines.length === 0 ? (
          <EmptyCart />
        ) : (
          <>
            {/* A drop's admission pass keeps running while the shopper checks out (ADR 010). */}
            <drops.PassNotice lines={lines} className="mx-5 mt-4" />
            <ul className="flex-1 divide-y divide-hairline overflow-y-auto px-5" aria-label="Cart items">
              {lines.map((line) => (
                <CartLine key={line.id} line={line} Refusal={drops.Refusal} />
              ))}
            </ul>
            <CartFooter lines={lines} />
          </>
        )}
      </SheetContent>
    </Sheet>
  );
}

function EmptyCart() {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-3 px-8 text-center">
      <div className="flex h-20 w-20 items-center justify-center rounded-full bg-bone">
        <ShoppingBag className="h-9 w-9 text-muted" aria-hidden="true" />
      </div>
      <p className="type-title">Your cart is empty</p>
      <p className="text-muted">Add some sustainable streetwear!</p>
      <Button variant="secondary" className="mt-3" onClick={cartDrawer.close}>
        Keep browsing
      </Button>
    </div>
  );
}

function CartLine({ line, Refusal }: { line: CartItem; Refusal: CartDropParts['Refusal'] }) {
  const update = useUpdateCartItem();
  const remove = useRemoveCartItem();
  const image = imageForColor(line.product, line.selectedColor);
  const options = formatLineOptions(line);

  return (
    <li className="flex gap-4 py-5" aria-label={line.product.name}>
      <div className="h-24 w-20 shrink-0 overflow-hidden bg-bone sm:h-28 sm:w-24">
        {image && (
          <ProductImage
            src={image}
            alt=""
            sizes="96px"
            width={96}
            height={112}
            className="h-full w-full object-cover"
          />
        )}
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div className="flex items-start justify-between gap-3">
          <p className="font-medium leading-tight">{line.product.name}</p>
          <p className="shrink-0 tabular-nums">{formatUsd(lineTotalCents(pricedLine(line)))}</p>
        </div>
        {options && <p className="text-sm text-muted">{options}</p>}
        <div className="mt-auto flex items-center justify-between gap-3 pt-2">
          <div className="flex items-center border border-hairline-strong">
            <button
              type="button"
              aria-label="Decrease quantity"
              disabled={line.quantity <= 1}
              onClick={() => update.mutate({ id: line.id, quantity: line.quantity - 1 })}
              className="inline-flex h-9 w-9 cursor-pointer items-center justify-center hover:bg-bone disabled:cursor-not-allowed disabled:opacity-40"
            >
              <Minus className="h-4 w-4" aria-hidden="true" />
            </button>
            <span className="min-w-9 text-center text-sm tabular-nums" aria-live="polite">
              <span className="sr-only">Quantity: </span>
              {line.quantity}
            </span>
            <button
              type="button"
              aria-label="Increase quantity"
              onClick={() => update.mutate({ id: line.id, quantity: line.quantity + 1 })}
              className="inline-flex h-9 w-9 cursor-pointer items-center justify-center hover:bg-bone"
            >
              <Plus className="h-4 w-4" aria-hidden="true" />
            </button>
          </div>
          <Button variant="link" size="sm" className="px-1 text-sm text-muted hover:text-ink" onClick={() => remove.mutate(line.id)}>
            Remove
          </Button>
        </div>
        {/* A refused change said beside it, with the way forward (a drop's pass, the current stock). */}
        {update.isError && (
          <>
            <Refusal error={update.error} lines={[line]} fallback="Could not change the quantity. Please try again." className="mt-2 p-3" />
            {/* Its size sold out: pick another or take the line out. */}
            <SoldOutSizeWayForward error={update.error} lines={[line]} onChooseSize={cartDrawer.close} />
          </>
        )}
      </div>
    </li>
  );
}

function CartFooter({ lines }: { lines: CartItem[] }) {
  const [, navigate] = useLocation();
  const clear = useClearCart();
  const settings = useShopSettings();
  const shipsAbroad = useShipsAbroad();
  const count = itemCount(lines);
  const total = subtotalCents(lines.map(pricedLine));
  const threshold = parseMoney(settings.freeShippingThreshold);
  // Before any discount code: the checkout recalculates, this is the nudge towards the threshold.
  const toFree = amountToFreeShipping(total, threshold);

  const checkout = () => {
    cartDrawer.close();
    navigate('/checkout');
  };

  return (
    <div className="space-y-4 border-t border-hairline bg-paper px-5 py-5">
      <div className="flex items-center justify-between text-sm">
        <span className="text-muted">{itemCountLabel(count)}</span>
        <Button variant="link" size="sm" className="px-1 text-sm text-muted hover:text-ink" onClick={() => clear.mutate()}>
          Clear Cart
        </Button>
      </div>
      <div className="flex items-baseline justify-between">
        <span className="text-base font-semibold">Total</span>
        <span className="text-lg font-semibold tabular-nums">{formatUsd(total)}</span>
      </div>
      <div className="-mt-2 space-y-2 text-sm">
        <p className="text-muted">Shipping calculated at checkout</p>
        {shipsAbroad ? (
          // Free shipping is the home country's (ADR 023): abroad, no nudge towards it.
          <p className="font-medium">
            <AbroadShippingLine />
          </p>
        ) : (
          <p className="font-medium">
            {toFree > 0 ? `Add ${formatUsd(toFree)} for free shipping` : 'Free shipping unlocked'}
          </p>
        )}
        {threshold > 0 && !shipsAbroad && (
          <div className="h-0.5 w-full bg-hairline" aria-hidden="true">
            <div
              className="h-full bg-ink"
              style={{ width: `${Math.min(100, Math.round((total / threshold) * 100))}%` }}
            />
          </div>
        )}
      </div>
      <Button variant="primary" size="lg" className="w-full" onClick={checkout}>
        Checkout
      </Button>
      <p className="text-center text-xs text-muted">
        {shipsAbroad
          ? 'Carbon neutral delivery'
          : `Free shipping on orders over ${formatThreshold(settings.freeShippingThreshold)} • Carbon neutral delivery`}
      </p>
    </div>
  );
}
