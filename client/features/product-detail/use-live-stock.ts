import { useEffect, useRef, useState } from 'react';
import type { LiveStock, Product } from '../../../common/contracts/catalog';
import type { DropStatus } from '../../../common/contracts/drops';
import { IN_CHECKOUTS_TEXT, STOCK_ANNOUNCE_MIN_MS, sellOutStory, stockLeftText } from '../../../common/domain/sell-out';
import { isAvailable } from '../../../common/domain/stock';
import { apiJson } from '../../lib/api-client';
import { subscribeEvents } from '../../lib/shared-event-source';

/** Polling when the event stream is refused (503) or EventSource is missing. */
const POLL_MS = 5_000;

function fromProduct(p: Product): LiveStock {
  return {
    productId: p.id,
    left: p.stock,
    editionSize: p.editionSize || 50,
    inStock: isAvailable(p),
    soldOutAt: p.soldOutAt ?? null,
    sellOutSeconds: p.sellOutSeconds ?? null,
    sizeStock: p.sizeStock,
  };
}

/** A drop's status of an edition cut in sizes carries what is left of each (ADR 015); absent: one pool. */
type SizedDropStatus = DropStatus & { sizes?: Array<{ size: string; colour: string | null; left: number }> };

/** The stock a drop's status tells (`left`, `editionSize`); how the edition ended comes from GET …/stock. */
export function fromDropStatus(p: Product, s: SizedDropStatus, before: LiveStock): LiveStock {
  const left = s.left;
  const next: LiveStock = {
    productId: p.id,
    left,
    editionSize: s.editionSize,
    inStock: isAvailable({ ...p, stock: left }),
    soldOutAt: left === 0 ? before.soldOutAt : null,
    sellOutSeconds: left === 0 ? before.sellOutSeconds : null,
    // The room says whether 0 left is final or only every piece in a checkout (docs/product.md §9, Drops).
    inCheckouts: left === 0 && s.soldOut === 'in_checkouts',
  };
  // Sizes follow the status when it tells them; else the last known (the edition's sum still moves).
  return s.sizes ? { ...next, sizeStock: s.sizes } : withSizes(next, before);
}

/**
 * A stock reading that does not tell the sizes (an older server) keeps the last known ones, so the picker
 * does not change shape under the shopper; when the edition is gone, so is every size.
 */
function withSizes(next: LiveStock, before: LiveStock): LiveStock {
  if (next.sizeStock !== undefined || before.sizeStock === undefined) return next;
  return {
    ...next,
    sizeStock: next.left <= 0 ? before.sizeStock.map((e) => ({ ...e, left: 0 })) : before.sizeStock,
  };
}

/** Phases in which a drop's status stream runs: the page follows it instead of opening a second stream. */
const droppingPhases = new Set<DropStatus['phase']>(['raffle', 'open', 'sold_out']);

/** What the page says of the stock: 'N of 50 left', 'Sold out', or how the edition ended. */
export function describeStock(s: LiveStock, drop = false): string {
  if (s.inCheckouts && drop) return `${IN_CHECKOUTS_TEXT}.`;
  if (s.soldOutAt) return `Sold out. ${sellOutStory(s.editionSize, s.sellOutSeconds)}.`;
  if (!s.inStock) return 'Sold out.';
  return `${stockLeftText(s.left, s.editionSize)}.`;
}

/**
 * Live stock of a product (ADR 011): starts from the server-rendered product, then follows ONE stream —
 * for a drop while its room is open (raffle, open, sold out), the waiting room's status stream, the same
 * one the waiting room follows (client/lib/shared-event-source.ts: one EventSource per page); otherwise
 * /api/products/:id/stock/events. Without a stream it polls /stock. `announcement` is what a polite live
 * region should say: it changes at most once every few seconds, so a falling count does not chatter.
 */
export function useLiveStock(product: Product): { stock: LiveStock; announcement: string } {
  const [stock, setStock] = useState<LiveStock>(() => fromProduct(product));
  const [announcement, setAnnouncement] = useState('');
  const lastSpoken = useRef(0);
  const first = useRef(true);
  // A drop's stream first; the stock stream once its status says the room is not open (yet) or is over.
  const [followDrop, setFollowDrop] = useState(product.releaseAt !== null);
  const [dropAgainAt, setDropAgainAt] = useState<string | null>(null);
  const productRef = useRef(product);
  productRef.current = product;
  const productId = product.id;

  useEffect(() => {
    let closed = false;
    let poll: ReturnType<typeof setInterval> | null = null;
    let unsubscribe: (() => void) | null = null;
    const url = `/api/products/${productId}/stock`;
    const read = () =>
      apiJson<LiveStock>('GET', url)
        .then((s) => !closed && setStock((before) => withSizes(s, before)))
        .catch(() => undefined);
    const startPolling = () => {
      if (poll || closed) return;
      poll = setInterval(() => void read(), POLL_MS);
    };
    if (typeof EventSource !== 'function') startPolling();
    else if (followDrop) {
      unsubscribe = subscribeEvents(
        `/api/drops/${productId}/events`,
        'status',
        (data) => {
          if (closed) return;
          const status = JSON.parse(data) as DropStatus;
          if (!droppingPhases.has(status.phase)) {
            // Not open yet (follow the stock until the room opens) or over (the stock from now on).
            setDropAgainAt(status.phase === 'not_open' ? status.roomOpensAt : null);
            setFollowDrop(false);
            return;
          }
          setStock((before) => {
            const next = fromDropStatus(productRef.current, status, before);
            // Gone: how the edition ended ('All 50 sold in …') is the stock endpoint's to say, once.
            if (next.left === 0 && before.left !== 0) void read();
            return next;
          });
        },
        (gaveUp) => gaveUp && startPolling(),
      );
    } else {
      unsubscribe = subscribeEvents(
        `${url}/events`,
        'stock',
        (data) => !closed && setStock((before) => withSizes(JSON.parse(data) as LiveStock, before)),
        // The browser retries a dropped stream by itself; a refused one (503) is closed: poll instead.
        (gaveUp) => gaveUp && startPolling(),
      );
    }
    return () => {
      closed = true;
      unsubscribe?.();
      if (poll) clearInterval(poll);
    };
  }, [productId, followDrop]);

  // A drop whose room opens later: back to its stream when it opens.
  useEffect(() => {
    if (!dropAgainAt) return;
    const wait = Math.min(Math.max(1000, Date.parse(dropAgainAt) - Date.now() + Math.random() * 2000), 2 ** 31 - 1);
    const timer = setTimeout(() => {
      setDropAgainAt(null);
      setFollowDrop(true);
    }, wait);
    return () => clearTimeout(timer);
  }, [dropAgainAt]);

  const text = describeStock(stock, product.releaseAt !== null);
  useEffect(() => {
    // Nothing is spoken on load: the page itself says it.
    if (first.current) {
      first.current = false;
      return;
    }
    const wait = lastSpoken.current + STOCK_ANNOUNCE_MIN_MS - Date.now();
    const speak = () => {
      lastSpoken.current = Date.now();
      setAnnouncement(text);
    };
    if (wait <= 0) {
      speak();
      return;
    }
    const timer = setTimeout(speak, wait);
    return () => clearTimeout(timer);
  }, [text]);

  return { stock, announcement };
}
