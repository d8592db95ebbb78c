import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import type { AdminDrop } from '../../../common/contracts/drops';
import { DropCard } from './drops-panel';

// The owner's Drops card, rendered to HTML (no DOM setup in this project): a drop split into sizes shows
// held / sold / left per size and the sell-out line naming the first size; one pool reads as before.

const soldOut: AdminDrop = {
  productId: 'p1',
  name: 'Sized Drop Tee',
  releaseAt: '2025-01-02T18:00:00.000Z',
  phase: 'sold_out',
  admitPerMinute: 60,
  paused: false,
  message: null,
  queueLength: 0,
  admitted: 120,
  admittedPerSecond: 0,
  held: 0,
  sold: 50,
  left: 0,
  editionSize: 50,
  sellOutSeconds: 192,
};

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

test('a sold-out split drop: a row per size and "All 50 sold in 3 min 12 s — M first, in 41 s"', () => {
  const html = renderToStaticMarkup(
    createElement(DropCard, {
      drop: {
        ...soldOut,
        sizes: [
          { size: null, colour: null, held: 0, sold: 2, left: 0 },
          { size: 'S', colour: null, held: 0, sold: 18, left: 0 },
          { size: 'M', colour: null, held: 0, sold: 15, left: 0 },
          { size: 'L', colour: 'Black', held: 0, sold: 15, left: 0 },
        ],
        firstSoldOut: { size: 'M', seconds: 41 },
      },
    }),
  );
  expect(html).toContain('<caption class="sr-only">Held, sold and left per size of Sized Drop Tee</caption>');
  const t = text(html);
  expect(t).toContain('Size Held Sold Left');
  expect(t).toContain('Sold before sizes 0 2 0');
  expect(t).toContain('M 0 15 0 sold out');
  expect(t).toContain('L · Black 0 15 0 sold out');
  expect(t).toContain('All 50 sold in 3 min 12 s — M first, in 41 s');
  // The one-pool figure gives way to the sentence.
  expect(t).not.toContain('Sold out in');
});

test('a live split drop: sizes with what is held, no sell-out line yet', () => {
  const html = renderToStaticMarkup(
    createElement(DropCard, {
      drop: {
        ...soldOut,
        phase: 'ended',
        held: 1,
        sold: 6,
        left: 43,
        sellOutSeconds: null,
        sizes: [
          { size: 'M', colour: null, held: 1, sold: 1, left: 0 },
          { size: 'L', colour: null, held: 0, sold: 5, left: 43 },
        ],
        firstSoldOut: null,
      },
    }),
  );
  const t = text(html);
  // M has a piece held in a checkout: not sold out yet.
  expect(t).toContain('M 1 1 0 L');
  expect(t).not.toContain('sold out');
  expect(t).not.toContain('All 50 sold');
});

test('one pool keeps its card as before: "Sold out in 3 min 12 s", no size table', () => {
  const t = text(renderToStaticMarkup(createElement(DropCard, { drop: soldOut })));
  expect(t).toContain('Sold out in 3 min 12 s');
  expect(t).toContain('0 / 50 / 0 of 50');
  expect(t).not.toContain('All 50 sold');
  expect(t).not.toContain('Held Sold Left');
});
