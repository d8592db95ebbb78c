import { useEffect, useRef, useState } from 'react';
import type { LiveStock, Product } from '../../../common/contracts/catalog';
import { STOCK_ANNOUNCE_MIN_MS, sellOutStory, stockLeftText } from '../../../common/domain/sell-out';
import { isAvailable } from '../../../common/domain/stock';
import { apiJson } from '../../lib/api-client';

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
  };
}

/** What the page says of the stock: 'N of 50 left', 'Sold out', or how the edition ended. */
export function describeStock(s: LiveStock): string {
  if (s.soldOutAt) return `Sold out. ${sellOutStory(s.editionSize, s.sellOutSeconds)}.`;
  if (!s.inStock) return 'Sold out.';
  return `${stockLeftText(s.left, s.editionSize)}.`;
}

/**
 * Live stock of a product (ADR 011): starts from the server-rendered product, then follows
 * /api/products/:id/stock/events (falling back to polling /stock). `announcement` is what a polite live
 * region should say: it changes at most once every few seconds, so a falling count does not chatter.
 */
export function useLiveStock(product: Product): { stock: LiveStock; announcement: string } {
  const [stock, setStock] = useState<LiveStock>(() => fromProduct(product));
  const [announcement, setAnnouncement] = useState('');
  const lastSpoken = useRef(0);
  const first = useRef(true);

  useEffect(() => {
    let closed = false;
    let poll: ReturnType<typeof setInterval> | null = null;
    let source: EventSource | null = null;
    const url = `/api/products/${product.id}/stock`;
    const startPolling = () => {
      if (poll || closed) return;
      poll = setInterval(() => {
        apiJson<LiveStock>('GET', url)
          .then((s) => !closed && setStock(s))
          .catch(() => undefined);
      }, POLL_MS);
    };
    if (typeof EventSource === 'function') {
      source = new EventSource(`${url}/events`);
      source.addEventListener('stock', (e) => {
        if (!closed) setStock(JSON.parse((e as MessageEvent<string>).data) as LiveStock);
      });
      // The browser retries a dropped stream by itself; a refused one (503) is closed: poll instead.
      source.onerror = () => {
        if (source?.readyState === EventSource.CLOSED) startPolling();
      };
    } else startPolling();
    return () => {
      closed = true;
      source?.close();
      if (poll) clearInterval(poll);
    };
  }, [product.id]);

  const text = describeStock(stock);
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
