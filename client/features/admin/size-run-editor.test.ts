import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { Router } from 'wouter';
import { SizeRunEditor } from './size-run-editor';
import { SizeStockPicker } from '../product-detail/size-stock-picker';

// No DOM test setup in this project: the components are rendered to HTML and read for what assistive
// technology gets (names, states, the live sum check). Journeys in a real browser come with mounting.

test('size run editor: labelled rows, named remove buttons, the sum check in a polite live region', () => {
  const html = renderToStaticMarkup(
    createElement(SizeRunEditor, {
      category: 'tshirts',
      editionSize: 50,
      value: [
        { size: 'S', pieces: 20 },
        { size: 'M', pieces: 25 },
      ],
      onChange: () => undefined,
    }),
  );
  expect(html).toContain('<legend class="mb-1 text-sm font-semibold">Sizes and pieces</legend>');
  expect(html).toMatch(/<p aria-live="polite"[^>]*>Sizes add up to 45 of 50 pieces\.<\/p>/);
  expect(html).toContain('aria-label="Remove size S"');
  expect(html).toContain('aria-label="Remove size M"');
  expect(html).toContain('Pieces <span class="sr-only">of M</span>');
  expect(html).toContain('Add size');
  expect(html).toContain('suggested: Tees (XS–XXL)');
});

test('size stock picker: a sold-out size is disabled and says so; few left says how many', () => {
  const html = renderToStaticMarkup(
    createElement(Router, {
      ssrPath: '/product/x',
      children: createElement(SizeStockPicker, {
        sizes: [
          { size: 'S', left: 9 },
          { size: 'M', left: 0 },
          { size: 'L', left: 2 },
        ],
        value: 'S',
        onChange: () => undefined,
      }),
    }),
  );
  expect(html).toContain('<legend class="mb-2 text-sm font-semibold">Size</legend>');
  const radio = (size: string) => html.match(new RegExp(`<input[^>]*value="${size}"[^>]*>`))?.[0] ?? '';
  expect(radio('M')).toContain('disabled=""');
  expect(radio('L')).not.toContain('disabled=""');
  expect(html).toContain('>M — sold out</label>');
  expect(html).toContain('>L — 2 left</label>');
  expect(html).toContain('>S</label>');
  expect(radio('S')).toContain('checked=""');
  expect(radio('S')).toContain('type="radio"');
});
