import { useRef, useState, type RefObject } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { DrawSale, Product } from '../../../common/contracts/catalog';
import type { CartItem } from '../../../common/contracts/cart';
import { imageForColor } from '../../../common/domain/color-image';
import { joinsTheLine } from '../../../common/domain/drop-schedule';
import { isAvailable } from '../../../common/domain/stock';
import { formatLineOptionsShort, resolveVariant, variantDefaults } from '../../../common/domain/variant';
import { toast } from '../../components/ui/use-toast';
import { ApiError } from '../../lib/api-client';
import { CART_KEY, toastAddedToCart, useAddToCart } from '../../lib/cart/use-cart';
import { useHydrated, useNow, useReleaseClock } from '../../lib/release-clock';
import { isCutInSizes, sizesLeft } from '../../lib/size-stock';
import { dropTiming } from '../../lib/use-drops';
import { cardNote, type CardNote } from './card-note';
import { DRAW_SALES_KEY, useDrawSales } from './use-products';

function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.serverMessage;
  return err instanceof Error ? err.message : 'Something went wrong. Please try again.';
}

/**
 * What a card offers, by the state of its piece: the draw's link while a draw owns the sale, the line
 * inside a drop's window, a countdown and Notify me before the release, nothing to buy once sold out,
 * else quick add.
 */
export type CardAction =
  | { kind: 'draw'; sale: DrawSale }
  | { kind: 'line'; msLeft: number | null }
  | { kind: 'upcoming'; msLeft: number }
  | { kind: 'sold-out' }
  | { kind: 'add' };

export interface SizeChoice {
  size: string;
  left: number;
}

/** The card's quick add: one unit, at once when nothing is to choose, else through the picker on the card. */
export interface QuickAdd {
  /** What the picker asks for: a size (with the colour first when there are several), or a colour only. */
  asks: 'size' | 'colour' | null;
  pickerOpen: boolean;
  /** The button's click: adds at once, or opens (closes) the picker. */
  onAddClick: () => void;
  closePicker: () => void;
  add: (size: string | null, colour: string | null) => void;
  pending: boolean;
  /** Until the server's list of drawn pieces is known, Add to Cart waits (it could be refused). */
  waiting: boolean;
  sizeChoices: SizeChoice[];
  firstOpenSize: number;
  /** Several sizes and several colours: the picker shows the colour first, preselected as pictured. */
  chooseColourFirst: boolean;
  defaultSize: string | null;
  addButtonRef: RefObject<HTMLButtonElement | null>;
}

export interface ProductCardModel {
  action: CardAction;
  soldOut: boolean;
  note: CardNote;
  /** The picture: the chosen colour's image (the first colour until the shopper picks another). */
  image: string | null;
  /** Shown on hover (a pointer) or by a swipe (touch); null with a single image. */
  secondImage: string | null;
  colour: string | null;
  setColour: (name: string) => void;
  quickAdd: QuickAdd;
}

/**
 * The data behind a product card (product-card.tsx draws it): the piece's state from the page's clock, the
 * draws the server named and its stock; quick add through the cart's mutation, on the query client the
 * app provides (a refused add asks again which pieces are drawn).
 */
export function useProductCard(product: Product): ProductCardModel {
  const queryClient = useQueryClient();
  const addToCart = useAddToCart();
  const [pickerOpen, setPickerOpen] = useState(false);
  // The card's picture shows the first colour: it is the one picked unless the shopper changes it.
  const [colour, setColour] = useState<string | null>(product.colors[0]?.name ?? null);
  const addButtonRef = useRef<HTMLButtonElement>(null);
  const release = useReleaseClock(product.releaseAt);
  const hydrated = useHydrated();
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
  // An edition cut in sizes (ADR 015): the picker greys a sold-out size, read 'M — sold out'.
  const sizeChoices = isCutInSizes(product.sizeStock)
    ? sizesLeft(product.sizes, product.sizeStock!, colour)
    : product.sizes.map((size) => ({ size, left: Infinity }));

  const closePicker = () => {
    setPickerOpen(false);
    addButtonRef.current?.focus();
  };

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

  const action: CardAction = drawSale
    ? { kind: 'draw', sale: drawSale }
    : inLine
      ? { kind: 'line', msLeft: release.released ? null : release.msLeft }
      : !release.released
        ? { kind: 'upcoming', msLeft: release.msLeft }
        : soldOut
          ? { kind: 'sold-out' }
          : { kind: 'add' };

  const image = imageForColor(product, colour);
  const secondImage = product.images.find((src) => src !== image) ?? null;

  return {
    action,
    soldOut,
    // In the line the card's timer says when; the quiet line keeps to the edition.
    note: cardNote(product, { now: Date.now(), released: release.released || inLine, local: hydrated }),
    image,
    secondImage,
    colour,
    setColour,
    quickAdd: {
      asks: !needsPicker ? null : severalSizes ? 'size' : 'colour',
      pickerOpen,
      // A single size (e.g. "One Size") and a single colour need no choice: add at once, carrying them.
      onAddClick: () => {
        if (!needsPicker) add(defaults.size, defaults.color);
        else setPickerOpen((o) => !o);
      },
      closePicker,
      add,
      pending: addToCart.isPending,
      waiting: drawUnknown,
      sizeChoices,
      firstOpenSize: sizeChoices.findIndex((o) => o.left > 0),
      chooseColourFirst: severalSizes && product.colors.length > 1,
      defaultSize: defaults.size,
      addButtonRef,
    },
  };
}
