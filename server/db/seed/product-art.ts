import crypto from 'node:crypto';
import { copyFile, mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { mapLimit } from '../../lib/map-limit';
import { projectRoot } from '../../lib/project-root';
import { seedCategories, seedImageJobs, seedProducts } from './catalog-data';

// The demo catalogue's pictures, drawn as SVG and rasterised with sharp, so a fresh install looks
// like a brand's shop without shipping binary assets: per colour a flat-lay (the piece laid out on
// the shop's paper, lit from above), and per product a close-up of the same drawing (collar and
// woven label, a cap's panel, a bag's print) with the knit showing.

export type ArtKind =
  'tee' | 'long-sleeve' | 'hoodie' | 'zip-hoodie' | 'cap' | 'beanie' | 'tote' | 'backpack' | 'deck' | 'socks';

export const artKinds: readonly ArtKind[] = [
  'tee',
  'long-sleeve',
  'hoodie',
  'zip-hoodie',
  'cap',
  'beanie',
  'tote',
  'backpack',
  'deck',
  'socks',
];

export interface ProductArtOptions {
  kind: ArtKind;
  /** garment colour, #rrggbb */
  color: string;
  /** print / trim colour; derived from the garment colour when omitted */
  accent?: string;
  /** short text printed on the chest or front, e.g. "FIFTY" or "NO.50" */
  graphic?: string;
  /** 'flat': the whole piece laid flat (default); 'detail': a close-up of its collar, label or print */
  view?: ArtView;
  outDir: string;
  /** file name stem: lower-case letters, digits and dashes */
  key: string;
}

export type ArtView = 'flat' | 'detail';

export const ART_SIZE = 1600;
export const ART_WIDTHS = [1600, 800, 400] as const;
// effort 2: much faster to encode than effort 4 for files barely larger, and a first start draws every
// image (bench/README.md, "Figures that were in code comments").
const WEBP = { quality: 80, effort: 2 } as const;

// ---------------------------------------------------------------------------------------------
// colour

type Rgb = [number, number, number];

function parseHex(hex: string): Rgb {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) throw new Error(`Not a hex colour: ${hex}`);
  const h = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b]
    .map((v) =>
      Math.round(Math.min(255, Math.max(0, v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

function mix(a: string, b: string, t: number): string {
  const x = parseHex(a);
  const y = parseHex(b);
  return toHex([0, 1, 2].map((i) => x[i] + (y[i] - x[i]) * t) as Rgb);
}

/** WCAG relative luminance, 0 (black) .. 1 (white) */
function luminance(hex: string): number {
  const lin = parseHex(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
}

interface Palette {
  base: string;
  hi: string;
  hi2: string;
  lo: string;
  lo2: string;
  inside: string;
  outline: string;
  stitch: string;
  print: string;
  metal: string;
  dark: boolean;
}

function makePalette(color: string, accent?: string): Palette {
  const base = toHex(parseHex(color));
  const lum = luminance(base);
  const dark = lum < 0.06;
  // Near-black cloth cannot get darker, so its form comes from lifting highlights instead.
  return {
    base,
    hi: mix(base, '#ffffff', dark ? 0.13 : 0.16),
    hi2: mix(base, '#ffffff', dark ? 0.24 : 0.32),
    lo: mix(base, '#000000', dark ? 0.35 : 0.14),
    lo2: mix(base, '#000000', dark ? 0.55 : 0.3),
    inside: mix(base, '#000000', dark ? 0.5 : 0.42),
    outline:
      lum > 0.55 ? mix(base, '#3a3630', 0.3) : dark ? mix(base, '#ffffff', 0.2) : mix(base, '#000000', 0.4),
    stitch: lum < 0.22 ? mix(base, '#ffffff', 0.3) : mix(base, '#000000', 0.32),
    print: accent ? toHex(parseHex(accent)) : lum > 0.42 ? '#161616' : '#f4f0e8',
    metal: lum > 0.3 ? '#3b3d42' : '#c9ccd1',
    dark,
  };
}

// ---------------------------------------------------------------------------------------------
// geometry: garments are drawn mirrored about x = 800 from their left half

type Pt = readonly [number, number];
type Seg = { L: Pt } | { C: readonly [Pt, Pt, Pt] } | { Q: readonly [Pt, Pt] };

const f = (n: number): string => (Math.round(n * 10) / 10).toString();
const pt = (p: Pt): string => `${f(p[0])} ${f(p[1])}`;
const mirror = (p: Pt, axis = 800): Pt => [2 * axis - p[0], p[1]];

function segEnd(s: Seg): Pt {
  if ('L' in s) return s.L;
  if ('C' in s) return s.C[2];
  return s.Q[1];
}

function segD(s: Seg): string {
  if ('L' in s) return `L${pt(s.L)}`;
  if ('C' in s) return `C${pt(s.C[0])} ${pt(s.C[1])} ${pt(s.C[2])}`;
  return `Q${pt(s.Q[0])} ${pt(s.Q[1])}`;
}

/** Closed path from a left half that starts and ends on the axis. */
function symmetric(start: Pt, segs: readonly Seg[], axis = 800): string {
  const m = (p: Pt): Pt => mirror(p, axis);
  let d = `M${pt(start)}` + segs.map(segD).join('');
  for (let i = segs.length - 1; i >= 0; i--) {
    const s = segs[i];
    const prev = i === 0 ? start : segEnd(segs[i - 1]);
    if ('L' in s) d += `L${pt(m(prev))}`;
    else if ('C' in s) d += `C${pt(m(s.C[1]))} ${pt(m(s.C[0]))} ${pt(m(prev))}`;
    else d += `Q${pt(m(s.Q[0]))} ${pt(m(prev))}`;
  }
  return d + 'Z';
}

/** The same open path on both sides of the axis. */
function both(d: (m: (p: Pt) => string) => string, axis = 800): string {
  return d(pt) + d((p) => pt(mirror(p, axis)));
}

// ---------------------------------------------------------------------------------------------
// type: a small stroke font so prints never depend on fonts installed on the host

// l / r: optical side bearings (negative pulls neighbours closer to open letters such as F, T, Y).
// d is stroked with square caps (flush stems and bars); b with butt caps, for terminals that
// end inside another stroke or on a curve, where a square cap would poke out.
const GLYPHS: Record<string, { w: number; d: string; b?: string; l?: number; r?: number }> = {
  A: { w: 6.4, d: 'M-0.64 12L3.2 0L7.04 12M1.9 6.6H4.5', l: 0, r: 0 },
  B: {
    w: 6,
    d: 'M0 0V10H3.6C5.1 10 6 9 6 7.5C6 6 5.1 5 3.5 5H0M3.3 5C4.6 5 5.5 4.1 5.5 2.5C5.5 1 4.6 0 3.3 0H0',
  },
  C: { w: 6, d: '', b: 'M6 2.2C5.4 0.8 4.4 0 3.1 0C1.2 0 0 2 0 5C0 8 1.2 10 3.1 10C4.4 10 5.4 9.2 6 7.8' },
  D: { w: 6, d: 'M0 0V10H2.7C4.9 10 6 8 6 5C6 2 4.9 0 2.7 0Z' },
  E: { w: 5.4, d: 'M5.4 0H0V10H5.4M0 5H4.8' },
  F: { w: 5.4, d: 'M5.4 0H0V10M0 5H4.8', l: 0, r: -0.3 },
  G: {
    w: 6.2,
    d: '',
    b: 'M6 2.2C5.4 0.8 4.4 0 3.1 0C1.2 0 0 2 0 5C0 8 1.2 10 3.1 10C5 10 6.2 8.6 6.2 6.2V5.3H3.4',
  },
  H: { w: 6, d: 'M0 0V10M6 0V10M0 5H6' },
  I: { w: 0, d: 'M0 0V10' },
  J: { w: 5, d: 'M5 0V7C5 9 4 10 2.5 10C1 10 0 9 0 7.4' },
  K: { w: 6, d: 'M0 0V10M7.69 -2L0.6 6.4', b: 'M2.4 4.4L7.29 12', l: 0, r: 0.6 },
  L: { w: 5.2, d: 'M0 0V10H5.2', l: 0, r: -0.8 },
  M: { w: 7.4, d: 'M0 10V0L3.7 7.2L7.4 0V10' },
  N: { w: 6, d: 'M0 10V0L6 10V0' },
  O: { w: 6.4, d: 'M3.2 0C1.2 0 0 2 0 5C0 8 1.2 10 3.2 10C5.2 10 6.4 8 6.4 5C6.4 2 5.2 0 3.2 0Z' },
  P: { w: 5.8, d: 'M0 10V0H3.3C5 0 5.8 1.2 5.8 2.8C5.8 4.4 5 5.6 3.3 5.6H0', l: 0, r: -0.3 },
  Q: {
    w: 6.4,
    d: 'M3.2 0C1.2 0 0 2 0 5C0 8 1.2 10 3.2 10C5.2 10 6.4 8 6.4 5C6.4 2 5.2 0 3.2 0ZM4 7L6.6 10.4',
  },
  R: { w: 6, d: 'M0 10V0H3.4C5.1 0 5.9 1.2 5.9 2.8C5.9 4.4 5.1 5.6 3.4 5.6H0', b: 'M3.4 5.6L7.18 12' },
  S: {
    w: 5.8,
    d: '',
    b: 'M5.6 2C5 0.7 4.1 0 2.9 0C1.4 0 0.3 1 0.3 2.6C0.3 6.1 5.8 4.3 5.8 7.4C5.8 9 4.6 10 2.9 10C1.6 10 0.6 9.3 0 8',
  },
  T: { w: 6, d: 'M0 0H6M3 0V10', l: -0.3, r: -0.3 },
  U: { w: 6, d: 'M0 0V6.8C0 9 1.2 10 3 10C4.8 10 6 9 6 6.8V0' },
  V: { w: 6.4, d: 'M-0.64 -2L3.2 10L7.04 -2', l: 0, r: 0 },
  W: { w: 8.6, d: 'M-0.42 -2L2.1 10L4.3 1.6L6.5 10L9.02 -2', l: 0, r: 0 },
  X: { w: 6.2, d: 'M-1.24 -2L7.44 12M7.44 -2L-1.24 12', l: 0.6, r: 0.6 },
  Y: { w: 6.4, d: 'M-1.19 -2L3.2 5.4L7.59 -2M3.2 5.4V10', l: 0.3, r: 0.3 },
  Z: { w: 5.8, d: 'M0.2 0H5.8L0 10H5.8' },
  '0': { w: 5.8, d: 'M2.9 0C1.1 0 0 2 0 5C0 8 1.1 10 2.9 10C4.7 10 5.8 8 5.8 5C5.8 2 4.7 0 2.9 0Z' },
  '1': { w: 3.2, d: 'M0 2.2L3.2 0V10', l: -0.4, r: 0 },
  '2': { w: 5.8, d: 'M0.2 2.7C0.5 1 1.6 0 3 0C4.6 0 5.7 1 5.7 2.8C5.7 5 3.2 6.5 0 10H5.8' },
  '3': {
    w: 5.8,
    d: 'M0.3 1.6C0.9 0.5 1.9 0 3 0C4.5 0 5.5 1 5.5 2.5C5.5 3.9 4.5 4.8 3 4.8H2M3 4.8C4.8 4.8 5.8 5.9 5.8 7.4C5.8 9 4.6 10 3 10C1.7 10 0.6 9.4 0 8.3',
  },
  '4': { w: 6, d: 'M4.6 10V0L0 7H6' },
  '5': {
    w: 5.8,
    d: 'M5.5 0H0.9L0.4 4.9',
    b: 'M0.5 4.6C1.1 4.1 2 3.8 3 3.8C4.8 3.8 5.8 5.1 5.8 6.9C5.8 8.8 4.6 10 2.9 10C1.7 10 0.7 9.4 0 8.4',
  },
  '6': {
    w: 5.8,
    d: '',
    b: 'M5.3 1C4.8 0.4 4 0 3.1 0C1.1 0 0 2.1 0 5.4C0 8.5 1.1 10 2.9 10C4.7 10 5.8 8.7 5.8 6.9C5.8 5.1 4.7 3.9 3 3.9C1.7 3.9 0.6 4.6 0.15 5.9',
  },
  '7': { w: 5.6, d: 'M0 0H5.6L1.04 12', l: 0, r: -0.3 },
  '8': {
    w: 5.8,
    d: 'M2.9 4.7C1.5 4.7 0.5 3.8 0.5 2.4C0.5 1 1.5 0 2.9 0C4.3 0 5.3 1 5.3 2.4C5.3 3.8 4.3 4.7 2.9 4.7ZM2.9 4.7C1.2 4.7 0 5.8 0 7.4C0 9 1.2 10 2.9 10C4.6 10 5.8 9 5.8 7.4C5.8 5.8 4.6 4.7 2.9 4.7Z',
  },
  '9': {
    w: 5.8,
    d: '',
    b: 'M0.5 9C1 9.6 1.8 10 2.7 10C4.7 10 5.8 7.9 5.8 4.6C5.8 1.5 4.7 0 2.9 0C1.1 0 0 1.3 0 3.1C0 4.9 1.1 6.1 2.8 6.1C4.1 6.1 5.2 5.4 5.65 4.3',
  },
  '.': { w: 0, d: 'M0 7.8V10' },
  '-': { w: 3.6, d: 'M0 5.6H3.6' },
  '/': { w: 4.4, d: 'M-0.65 12L5.05 -2' },
  "'": { w: 0, d: 'M0 0V3' },
  '&': {
    w: 6.6,
    d: 'M8.07 12L1.4 4C0.8 3.2 0.7 2.7 0.7 2.2C0.7 0.9 1.7 0 2.9 0C4.1 0 5 0.8 5 2C5 3.3 4 4 2.2 5.2C0.8 6.1 0 7 0 8C0 9.2 1 10 2.6 10C4.2 10 5.6 9 6.6 6.8',
  },
  ' ': { w: 2.6, d: '' },
};

interface TypeOptions {
  cx: number;
  cy: number;
  /** cap height in px */
  height: number;
  color: string;
  /** text is scaled down to fit */
  maxWidth?: number;
  /** stroke weight relative to cap height 10 */
  weight?: number;
  rotate?: number;
}

const GAP = 1.25;

/** x offset of each glyph's origin, and the line's total width, in font units. */
function layoutLine(
  line: string,
  weight: number,
): { glyphs: { d: string; b?: string; x: number }[]; width: number } {
  const chars = [...line].map((ch) => GLYPHS[ch] ?? GLYPHS[' ']);
  let x = weight / 2;
  const glyphs = chars.map((g, i) => {
    if (i > 0) x += g.l ?? 0;
    const at = x;
    x += g.w;
    if (i < chars.length - 1) x += weight + GAP + (g.r ?? 0);
    return { d: g.d, b: g.b, x: at };
  });
  return { glyphs, width: x + weight / 2 };
}

let typeCount = 0;

/**
 * Square caps keep stems and bars the same height; a clip to the cap band then trims the
 * spikes that diagonal strokes and sharp joins would otherwise poke above and below.
 */
export function typeset(text: string, o: TypeOptions): string {
  const weight = o.weight ?? 2.2;
  const lines = text
    .toUpperCase()
    .split('\n')
    .map((l) => layoutLine(l, weight));
  const lead = 14;
  const widest = Math.max(...lines.map((l) => l.width));
  let scale = o.height / 10;
  if (o.maxWidth && widest * scale > o.maxWidth) scale = o.maxWidth / widest;
  const blockH = 10 + lead * (lines.length - 1);
  const id = `type${++typeCount}`;
  const top = (li: number): number => -blockH / 2 + li * lead;
  const clip = lines
    .map(
      (l, li) =>
        `<rect x="${f(-l.width / 2 - 2)}" y="${f(top(li) - weight / 2)}" width="${f(l.width + 4)}" height="${f(10 + weight)}"/>`,
    )
    .join('');
  const paths = lines
    .map((l, li) =>
      l.glyphs
        .map((g) => {
          const at = `transform="translate(${f(g.x - l.width / 2)} ${f(top(li))})"`;
          return (
            (g.d ? `<path ${at} d="${g.d}"/>` : '') +
            (g.b ? `<path ${at} stroke-linecap="butt" d="${g.b}"/>` : '')
          );
        })
        .join(''),
    )
    .join('');
  const rot = o.rotate ? ` rotate(${o.rotate})` : '';
  return `<g transform="translate(${f(o.cx)} ${f(o.cy)})${rot} scale(${scale.toFixed(3)})"><clipPath id="${id}">${clip}</clipPath><g clip-path="url(#${id})" fill="none" stroke="${o.color}" stroke-width="${weight}" stroke-linejoin="miter" stroke-miterlimit="5" stroke-linecap="square">${paths}</g></g>`;
}

// ---------------------------------------------------------------------------------------------
// garments

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface GarmentArt {
  /** extent of the drawing in its own coordinates (used to fit it into a scene) */
  box: Box;
  /** plain shapes covering the garment, used for the clip and the cast shadow */
  silhouette: string;
  body: string;
  /** details drawn inside the clip before the shading, so the shading falls on them too */
  under?: string;
  /** details drawn over the clipped shading */
  over: string;
  /** false when the drawing brings its own light (several objects side by side) */
  shade?: boolean;
}

interface Ctx {
  id: string;
  p: Palette;
  graphic?: string;
}

const dash = (color: string, width = 3.5, pattern = '11 8', opacity = 0.9): string =>
  `fill="none" stroke="${color}" stroke-width="${width}" stroke-dasharray="${pattern}" stroke-linecap="round" opacity="${opacity}"`;
const line = (color: string, width: number, opacity = 1): string =>
  `fill="none" stroke="${color}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round" opacity="${opacity}"`;
const solid = (fill: string, c: Ctx, width = 4): string =>
  `fill="${fill}" stroke="${c.p.outline}" stroke-width="${width}" stroke-linejoin="round"`;

/** Horizontal "cylinder" light: lit left of centre, falling off to both sides. */
function cylinder(c: Ctx, box: Box, strength = 1): string {
  const id = `${c.id}-cyl`;
  const k = c.p.dark ? 0.55 : 1;
  return `<linearGradient id="${id}" x1="0" x2="1" y1="0" y2="0">
<stop offset="0" stop-color="#000" stop-opacity="${(0.2 * strength * k).toFixed(3)}"/>
<stop offset="0.22" stop-color="#000" stop-opacity="0"/>
<stop offset="0.4" stop-color="#fff" stop-opacity="${(0.09 * strength).toFixed(3)}"/>
<stop offset="0.7" stop-color="#000" stop-opacity="0"/>
<stop offset="1" stop-color="#000" stop-opacity="${(0.24 * strength * k).toFixed(3)}"/>
</linearGradient>
<linearGradient id="${id}-v" x1="0" x2="0" y1="0" y2="1">
<stop offset="0" stop-color="#fff" stop-opacity="${(0.07 * strength).toFixed(3)}"/>
<stop offset="0.55" stop-color="#fff" stop-opacity="0"/>
<stop offset="1" stop-color="#000" stop-opacity="${(0.14 * strength * k).toFixed(3)}"/>
</linearGradient>
<rect data-shade="1" x="${box.x}" y="${box.y}" width="${box.w}" height="${box.h}" fill="url(#${id})"/>
<rect data-shade="1" x="${box.x}" y="${box.y}" width="${box.w}" height="${box.h}" fill="url(#${id}-v)"/>`;
}

function print(c: Ctx, cx: number, cy: number, height: number, maxWidth: number, rotate?: number): string {
  if (!c.graphic) return '';
  return typeset(c.graphic, { cx, cy, height, maxWidth, color: c.p.print, rotate });
}

/** The woven brand label sewn into the back neck: it shows inside the collar, and large in the close-up. */
function neckLabel(c: Ctx, cx: number, cy: number, w: number, h: number): string {
  const pale = luminance(c.p.base) > 0.3;
  const cloth = pale ? '#1b1b1b' : '#f1eee6';
  const ink = pale ? '#f1eee6' : '#1b1b1b';
  return `<rect x="${f(cx - w / 2)}" y="${f(cy - h / 2)}" width="${f(w)}" height="${f(h)}" fill="${cloth}" stroke="${c.p.outline}" stroke-width="1.5"/>
<path d="M${f(cx - w / 2 + 3)} ${f(cy - h / 2 + 3)}H${f(cx + w / 2 - 3)}" ${dash(ink, 1.2, '3 3', 0.6)}/>
${typeset('FIFTY', { cx, cy: cy + 1, height: h * 0.38, maxWidth: w * 0.72, color: ink, weight: 2.4 })}`;
}

function drawTee(c: Ctx, long: boolean): GarmentArt {
  const { p } = c;
  const sleeve: Seg[] = long
    ? [
        {
          C: [
            [418, 392],
            [372, 470],
            [352, 600],
          ],
        },
        { L: [318, 1118] },
        { L: [322, 1212] },
        { L: [420, 1212] },
        { L: [420, 1118] },
        {
          C: [
            [440, 900],
            [478, 720],
            [506, 612],
          ],
        },
      ]
    : [
        {
          C: [
            [412, 392],
            [346, 478],
            [296, 640],
          ],
        },
        { L: [444, 716] },
        {
          C: [
            [470, 668],
            [494, 636],
            [506, 608],
          ],
        },
      ];
  const bodyPath = symmetric(
    [800, 396],
    [
      {
        Q: [
          [736, 394],
          [690, 320],
        ],
      },
      { L: [474, 372] },
      ...sleeve,
      {
        C: [
          [500, 780],
          [500, 1100],
          [498, 1296],
        ],
      },
      {
        Q: [
          [650, 1310],
          [800, 1308],
        ],
      },
    ],
  );
  const backNeck = `M690 320C736 344 864 344 910 320Q864 396 800 398Q736 396 690 320Z`;
  const neck = `M690 320Q736 394 800 396Q864 394 910 320`;
  const box: Box = { x: long ? 310 : 290, y: 310, w: long ? 980 : 1020, h: 1004 };
  const hemStitch = `M502 1262Q650 1276 800 1274Q950 1276 1098 1262`;
  const sleeveHem = long
    ? both((m) => `M${m([322, 1130])}L${m([420, 1130])}`)
    : both((m) => `M${m([313, 617])}L${m([447, 688])}`);
  const cuffRibs = long
    ? both((m) =>
        [0, 1, 2, 3, 4, 5, 6, 7]
          .map((i) => `M${m([332 + i * 11.5, 1140])}L${m([333 + i * 11.5, 1204])}`)
          .join(''),
      )
    : '';
  const seams = long
    ? both((m) => `M${m([474, 374])}C${m([470, 450])} ${m([486, 540])} ${m([506, 612])}`)
    : both((m) => `M${m([474, 374])}C${m([472, 450])} ${m([488, 548])} ${m([506, 608])}`);
  const folds = [
    both(
      (m) =>
        `M${m([520, 640])}C${m([580, 700])} ${m([610, 760])} ${m([612, 840])}C${m([590, 770])} ${m([560, 700])} ${m([520, 640])}Z`,
    ),
    both(
      (m) =>
        `M${m([560, 1296])}C${m([590, 1220])} ${m([600, 1150])} ${m([596, 1080])}C${m([612, 1160])} ${m([610, 1230])} ${m([590, 1300])}Z`,
    ),
  ];
  const body = `<path d="${backNeck}" ${solid(p.inside, c)}/>
<path d="M690 320C736 344 864 344 910 320" ${line(p.lo, 16)}/>
${neckLabel(c, 800, 352, 66, 30)}
<path d="${bodyPath}" ${solid(p.base, c)}/>`;
  const over = `<path d="${folds[0]}" fill="${p.lo}" opacity="0.55"/>
<path d="${folds[1]}" fill="${p.lo}" opacity="0.45"/>
<path d="${seams}" ${line(p.lo2, 3, 0.55)}/>
<path d="${neck}" ${line(p.hi, 26)}/>
<path d="${neck}" ${line(p.outline, 4)}/>
<path d="M690 320Q736 394 800 396Q864 394 910 320" transform="translate(0 24)" ${dash(p.stitch, 3, '9 7')}/>
<path d="${hemStitch}" ${dash(p.stitch)}/>
<path d="${hemStitch}" transform="translate(0 12)" ${dash(p.stitch)}/>
<path d="${sleeveHem}" ${dash(p.stitch)}/>
${long ? `<path d="${cuffRibs}" ${line(p.lo, 4, 0.6)}/>` : ''}
${print(c, 800, long ? 620 : 600, 74, 330)}`;
  return { box, silhouette: `<path d="${bodyPath}"/><path d="${backNeck}"/>`, body, over };
}

function drawHoodie(c: Ctx, zip: boolean): GarmentArt {
  const { p } = c;
  const bodyPath = symmetric(
    [800, 476],
    [
      { L: [668, 340] },
      { L: [466, 392] },
      {
        C: [
          [404, 410],
          [362, 490],
          [344, 620],
        ],
      },
      { L: [300, 1126] },
      { L: [304, 1228] },
      { L: [424, 1228] },
      { L: [424, 1126] },
      {
        C: [
          [446, 910],
          [478, 740],
          [506, 636],
        ],
      },
      {
        C: [
          [504, 800],
          [506, 1020],
          [508, 1180],
        ],
      },
      { L: [512, 1296] },
      {
        Q: [
          [650, 1304],
          [800, 1302],
        ],
      },
    ],
  );
  const hoodOuter = symmetric(
    [800, 128],
    [
      {
        C: [
          [650, 128],
          [566, 240],
          [592, 420],
        ],
      },
      { L: [800, 500] },
    ],
  );
  const hoodInner = symmetric(
    [800, 196],
    [
      {
        C: [
          [700, 196],
          [640, 270],
          [648, 372],
        ],
      },
      { L: [800, 476] },
    ],
  );
  const rim = `M800 476L648 372C640 270 700 196 800 196C900 196 960 270 952 372Z`;
  const box: Box = { x: 296, y: 124, w: 1008, h: 1184 };
  const waist = `M512 1190Q650 1200 800 1198Q950 1200 1088 1190`;
  const waistRibs = Array.from({ length: 27 }, (_, i) => {
    const x = 526 + i * 21.3;
    return `M${f(x)} 1204L${f(x)} 1290`;
  }).join('');
  const cuffRibs = both((m) =>
    Array.from({ length: 8 }, (_, i) => `M${m([316 + i * 14, 1138])}L${m([316 + i * 14, 1220])}`).join(''),
  );
  const pocket = zip
    ? both((m) => `M${m([786, 900])}L${m([640, 900])}L${m([560, 1050])}L${m([560, 1168])}L${m([786, 1168])}`)
    : `M620 890H980L1068 1060V1170H532V1060Z`;
  const pocketOpen = zip
    ? both((m) => `M${m([640, 900])}L${m([560, 1050])}`)
    : both((m) => `M${m([620, 890])}L${m([532, 1060])}`);
  // Cords are lighter than dark cloth and darker than pale cloth so they always read.
  const cord = luminance(p.base) > 0.45 ? mix(p.base, '#000000', 0.3) : p.hi2;
  const strings = zip
    ? ''
    : `<path d="M758 452C752 520 744 570 748 626" ${line(p.outline, 15)}/><path d="M842 452C850 510 858 560 854 614" ${line(p.outline, 15)}/>
<path d="M758 452C752 520 744 570 748 626" ${line(cord, 11)}/><path d="M842 452C850 510 858 560 854 614" ${line(cord, 11)}/>
<rect x="738" y="622" width="20" height="44" rx="5" fill="${p.metal}" stroke="${p.outline}" stroke-width="2"/><rect x="844" y="610" width="20" height="44" rx="5" fill="${p.metal}" stroke="${p.outline}" stroke-width="2"/>
<circle cx="758" cy="446" r="11" fill="${p.inside}" stroke="${p.metal}" stroke-width="5"/><circle cx="842" cy="446" r="11" fill="${p.inside}" stroke="${p.metal}" stroke-width="5"/>`;
  const zipper = zip
    ? `<path d="M800 480V1296" ${line(p.lo2, 22)}/><path d="M800 484V1292" ${line(p.metal, 10)}/><path d="M800 484V1292" ${dash(p.lo2, 10, '3 5', 0.7)}/>
<rect x="786" y="488" width="28" height="70" rx="8" fill="${p.metal}" stroke="${p.outline}" stroke-width="2.5"/><rect x="793" y="520" width="14" height="30" rx="4" fill="${p.lo2}"/>`
    : '';
  const folds = both(
    (m) =>
      `M${m([520, 660])}C${m([586, 720])} ${m([616, 790])} ${m([620, 880])}C${m([594, 800])} ${m([566, 736])} ${m([520, 660])}Z` +
      `M${m([360, 700])}C${m([380, 800])} ${m([392, 900])} ${m([388, 1040])}C${m([378, 930])} ${m([366, 820])} ${m([360, 700])}Z`,
  );
  const body = `<path d="${hoodOuter}" ${solid(p.lo, c)}/>
<path d="${bodyPath}" ${solid(p.base, c)}/>`;
  const under = `<path d="${pocket}" fill="${p.base}" stroke="${p.outline}" stroke-width="3.5" stroke-linejoin="round"/>
<path d="${pocket}" transform="translate(800 1030) scale(0.965) translate(-800 -1030)" ${dash(p.stitch, 3)}/>
<path d="${pocketOpen}" ${line(p.lo2, 9, 0.6)}/>`;
  const over = `<path d="${folds}" fill="${p.lo}" opacity="0.6"/>
<path d="${hoodInner}" fill="${p.inside}"/>
${zip ? neckLabel(c, 800, 400, 54, 26) : neckLabel(c, 800, 300, 58, 28)}
<path d="${rim}" fill="none" stroke="${p.hi}" stroke-width="30" stroke-linejoin="round"/>
<path d="${rim}" transform="translate(800 336) scale(1.075) translate(-800 -336)" ${line(p.outline, 3.5)}/>
<path d="${rim}" transform="translate(800 336) scale(0.94) translate(-800 -336)" ${line(p.outline, 3)}/>
${strings}
<path d="${both((m) => `M${m([466, 394])}C${m([464, 480])} ${m([484, 570])} ${m([506, 636])}`)}" ${line(p.lo2, 3, 0.55)}/>
<path d="${waist}" ${line(p.outline, 3.5)}/>
<path d="${waistRibs}" ${line(p.lo, 4, 0.55)}/>
<path d="${both((m) => `M${m([302, 1130])}L${m([424, 1130])}`)}" ${line(p.outline, 3.5)}/>
<path d="${cuffRibs}" ${line(p.lo, 4, 0.55)}/>
${zipper}
${zip ? print(c, 676, 640, 40, 150) : print(c, 800, 770, 70, 300)}`;
  return { box, silhouette: `<path d="${bodyPath}"/><path d="${hoodOuter}"/>`, body, under, over };
}

function drawCap(c: Ctx): GarmentArt {
  const { p } = c;
  // Three-quarter view with the bill swinging towards the viewer: a straight front view reads as a helmet.
  const crown = `M520 884C480 640 640 440 860 430C1080 420 1214 600 1204 852C1140 884 1080 908 1010 930C860 944 660 922 520 884Z`;
  const bill = `M524 870C430 894 330 936 298 986C278 1040 420 1076 604 1072C790 1068 930 1014 976 930C840 944 660 926 524 870Z`;
  const billUnder = `M298 986C278 1040 420 1076 604 1072C790 1068 930 1014 976 930L986 950C930 1040 790 1094 600 1096C410 1098 266 1052 298 986Z`;
  const box: Box = { x: 270, y: 420, w: 950, h: 680 };
  const rows = [0.95, 0.9, 0.85, 0.8]
    .map(
      (k) =>
        `<path d="M330 978C320 1030 440 1058 604 1056C780 1052 906 1004 952 936" transform="translate(700 930) scale(${k}) translate(-700 -930)" ${dash(p.stitch, 3, '10 7', 0.75)}/>`,
    )
    .join('');
  const body = `<path d="${crown}" ${solid(p.base, c)}/>
<path d="${billUnder}" ${solid(p.lo2, c)}/>
<path d="${bill}" ${solid(p.base, c)}/>`;
  const under = `<path d="M1120 890C1120 830 1170 806 1204 836L1204 852C1176 868 1150 880 1120 890Z" fill="${p.inside}"/>`;
  const over = `<path d="M860 436C760 520 700 700 712 926" ${line(p.lo2, 4, 0.7)}/>
<path d="M850 440C748 526 688 704 700 926" ${dash(p.stitch, 3, '8 6', 0.8)}/>
<path d="M860 436C940 540 990 720 1000 928" ${line(p.lo2, 4, 0.7)}/>
<path d="M860 436C1030 500 1150 660 1170 866" ${line(p.lo2, 4, 0.6)}/>
<path d="M540 860C700 910 900 920 1014 904C1090 886 1150 864 1200 836" ${dash(p.stitch, 3, '9 7', 0.8)}/>
<path d="M560 560C620 480 700 446 780 442C690 500 630 570 590 660Z" fill="${p.hi2}" opacity="0.35"/>
<circle cx="740" cy="540" r="9" fill="${p.lo2}" stroke="${p.stitch}" stroke-width="3"/><circle cx="1060" cy="600" r="9" fill="${p.lo2}" stroke="${p.stitch}" stroke-width="3"/>
<ellipse cx="860" cy="434" rx="34" ry="14" fill="${p.base}" stroke="${p.outline}" stroke-width="3.5"/>
${print(c, 730, 700, 120, 300, -5)}`;
  // The crown casts a soft shadow onto the bill where they meet.
  const billShade = `<path d="M524 870C660 926 840 944 976 930C950 966 900 990 840 1000C710 986 600 940 524 870Z" fill="#000" opacity="0.22"/>`;
  return {
    box,
    silhouette: `<path d="${crown}"/><path d="${bill}"/><path d="${billUnder}"/>`,
    body,
    under,
    over: over + billShade + rows,
  };
}

function drawBeanie(c: Ctx): GarmentArt {
  const { p } = c;
  const dome = symmetric(
    [800, 390],
    [
      {
        C: [
          [616, 390],
          [486, 560],
          [478, 860],
        ],
      },
      { L: [800, 860] },
    ],
  );
  const cuff = `M458 820Q800 796 1142 820L1150 1080Q800 1110 450 1080Z`;
  const box: Box = { x: 440, y: 380, w: 720, h: 740 };
  const ribs = Array.from({ length: 13 }, (_, i) => {
    const t = (i + 1) / 14;
    const xb = 478 + t * 644;
    const xt = 800 + (xb - 800) * 0.16;
    return `M${f(xt)} 406C${f(xt + (xb - xt) * 0.62)} 470 ${f(xb)} 630 ${f(xb)} 830`;
  }).join('');
  const cuffRibs = Array.from({ length: 33 }, (_, i) => {
    const x = 474 + i * 20.4;
    return `M${f(x)} 830L${f(x + (x - 800) * 0.012)} 1074`;
  }).join('');
  const label = c.graphic
    ? `<rect x="690" y="900" width="220" height="104" rx="6" fill="${p.print}" stroke="${mix(p.print, '#000000', 0.25)}" stroke-width="3"/>
<rect x="700" y="910" width="200" height="84" rx="3" ${dash(mix(p.print, p.base, 0.5), 2.5, '7 5', 0.9)}/>
${typeset(c.graphic, { cx: 800, cy: 952, height: 40, maxWidth: 168, color: p.base })}`
    : '';
  const body = `<path d="${dome}" ${solid(p.base, c)}/>
<path d="${cuff}" ${solid(p.base, c)}/>`;
  const over = `<path d="${ribs}" ${line(p.lo, 9, 0.5)}/>
<path d="${ribs}" transform="translate(13 0)" ${line(p.hi, 5, 0.45)}/>
<path d="M800 396C760 450 740 540 736 640C760 550 780 470 800 396Z" fill="${p.hi}" opacity="0.35"/>
<path d="M458 820Q800 796 1142 820L1144 860Q800 836 456 860Z" fill="#000" opacity="0.12"/>
<path d="${cuffRibs}" ${line(p.lo, 8, 0.45)}/>
<path d="${cuffRibs}" transform="translate(9 0)" ${line(p.hi, 4, 0.4)}/>
<path d="M462 830Q800 806 1138 830" ${line(p.outline, 3.5, 0.8)}/>
${label}`;
  return { box, silhouette: `<path d="${dome}"/><path d="${cuff}"/>`, body, over };
}

function drawTote(c: Ctx): GarmentArt {
  const { p } = c;
  const bag = `M486 640L1114 640L1146 1300Q1146 1318 1128 1318L472 1318Q454 1318 454 1300Z`;
  const handle = (dx: number): string =>
    `M${610 + dx} 660C${600 + dx} 460 ${660 + dx} 312 ${800 + dx} 312C${940 + dx} 312 ${1000 + dx} 460 ${990 + dx} 660`;
  const box: Box = { x: 440, y: 280, w: 720, h: 1044 };
  const body = `<path d="${handle(-26)}" fill="none" stroke="${p.outline}" stroke-width="50" stroke-linecap="butt"/>
<path d="${handle(-26)}" fill="none" stroke="${p.lo2}" stroke-width="43" stroke-linecap="butt"/>
<path d="${bag}" ${solid(p.base, c)}/>`;
  const over = `<path d="M486 640H1114L1117 712H483Z" fill="${p.lo}" opacity="0.5"/>
<path d="M490 700H1110" ${dash(p.stitch, 3.5)}/>
<path d="M486 640L454 1300" ${line(p.lo2, 26, 0.22)}/><path d="M1114 640L1146 1300" ${line(p.lo2, 26, 0.25)}/>
<path d="M472 1290H1128" ${dash(p.stitch, 3.5)}/>
<path d="M560 760C600 960 590 1140 560 1300" ${line(p.lo, 24, 0.35)}/>
<path d="M1020 720C1060 900 1060 1100 1090 1300" ${line(p.lo, 20, 0.3)}/>
${c.graphic ? `<rect x="610" y="850" width="380" height="300" fill="none" stroke="${p.print}" stroke-width="10"/>${print(c, 800, 1000, 96, 300)}` : ''}`;
  const front = `<path d="${handle(0)}" fill="none" stroke="${p.outline}" stroke-width="50" stroke-linecap="butt"/>
<path d="${handle(0)}" fill="none" stroke="${p.base}" stroke-width="43" stroke-linecap="butt"/>
<path d="${handle(0)}" ${dash(p.stitch, 3, '10 7')} transform="translate(0 0)"/>
<path d="M582 640h56v120h-56zM962 640h56v120h-56z" fill="${p.base}" stroke="${p.outline}" stroke-width="3"/>
<path d="M590 700l40 40m-40 0l40-40M970 700l40 40m-40 0l40-40" ${line(p.stitch, 3.5, 0.9)}/>`;
  return { box, silhouette: `<path d="${bag}"/>`, body, over: over + front };
}

function drawBackpack(c: Ctx): GarmentArt {
  const { p } = c;
  const shell = `M560 470C560 360 660 300 800 300C940 300 1040 360 1040 470L1064 1236C1066 1300 1030 1332 970 1332H630C570 1332 534 1300 536 1236Z`;
  const box: Box = { x: 480, y: 200, w: 640, h: 1140 };
  const strapsBehind = both((m) => `M${m([600, 380])}C${m([510, 520])} ${m([500, 900])} ${m([514, 1150])}`);
  const pocket = `M620 880H980Q1010 880 1012 910L1020 1220Q1020 1260 980 1260H620Q580 1260 580 1220L588 910Q590 880 620 880Z`;
  const zipArc = `M584 1020C570 700 610 380 800 380C990 380 1030 700 1016 1020`;
  const body = `<path d="M720 300C720 216 880 216 880 300" fill="none" stroke="${p.outline}" stroke-width="40" stroke-linecap="round"/>
<path d="M720 300C720 216 880 216 880 300" fill="none" stroke="${p.lo}" stroke-width="32" stroke-linecap="round"/>
<path d="${strapsBehind}" fill="none" stroke="${p.outline}" stroke-width="62" stroke-linecap="round"/>
<path d="${strapsBehind}" fill="none" stroke="${p.lo2}" stroke-width="54" stroke-linecap="round"/>
<path d="${shell}" ${solid(p.base, c)}/>`;
  const over = `<path d="M540 1180L1060 1180L1064 1236C1066 1300 1030 1332 970 1332H630C570 1332 534 1300 536 1236Z" fill="${p.lo2}" opacity="0.7"/>
<path d="M540 1180H1060" ${dash(p.stitch, 3)}/>
<path d="${zipArc}" ${line(p.lo2, 22, 0.9)}/>
<path d="${zipArc}" ${dash(p.metal, 10, '4 5', 0.9)}/>
<path d="M650 470L632 520" ${line(p.metal, 12)}/><rect x="612" y="516" width="30" height="62" rx="10" fill="${p.metal}" stroke="${p.outline}" stroke-width="3" transform="rotate(18 627 547)"/>
<path d="${pocket}" ${solid(p.base, c, 3.5)}/>
<path d="${pocket}" transform="translate(800 1070) scale(0.95) translate(-800 -1070)" ${dash(p.stitch, 3)}/>
<path d="M614 930H986" ${line(p.lo2, 18, 0.9)}/><path d="M614 930H986" ${dash(p.metal, 8, '4 5', 0.9)}/>
<rect x="940" y="918" width="52" height="24" rx="8" fill="${p.metal}" stroke="${p.outline}" stroke-width="3"/>
<path d="M980 942L992 1000" ${line(p.lo2, 10)}/>
<path d="M630 560C640 700 640 840 630 880" ${line(p.hi, 30, 0.3)}/>
${c.graphic ? `<rect x="700" y="1040" width="200" height="96" rx="10" fill="${p.print}"/>${typeset(c.graphic, { cx: 800, cy: 1088, height: 40, maxWidth: 160, color: p.base })}` : ''}`;
  return { box, silhouette: `<path d="${shell}"/>`, body, over };
}

/** Vertical lines that a dotted dash pattern turns into grip-tape speckle. */
function grit(x: number, y: number, w: number, h: number): string {
  return Array.from(
    { length: Math.ceil(w / 11) },
    (_, i) => `M${x + i * 11} ${y + (i % 3) * 4}V${y + h}`,
  ).join('');
}

function drawDeck(c: Ctx): GarmentArt {
  const { p } = c;
  // Graphic side and grip side together, the usual deck packshot; each brings its own light.
  const w = 300;
  const top = 160;
  const bottom = 1420;
  const r = w / 2;
  const outline = (cx: number): string =>
    `M${cx - r} ${top + r}A${r} ${r} 0 0 1 ${cx + r} ${top + r}V${bottom - r}A${r} ${r} 0 0 1 ${cx - r} ${bottom - r}Z`;
  const left = 610;
  const right = 990;
  const tilt = (cx: number, deg: number): string => `rotate(${deg} ${cx} ${(top + bottom) / 2})`;
  const box: Box = { x: left - r - 60, y: top - 30, w: right - left + w + 120, h: bottom - top + 60 };
  const wood = '#e3c48f';
  const grainColor = p.dark ? p.hi : p.lo;
  const grain = Array.from({ length: 6 }, (_, i) => {
    const x = left - r + 45 + i * 42;
    return `M${x} ${top + 60}C${x + 14} ${top + 420} ${x - 12} ${bottom - 420} ${x + 6} ${bottom - 60}`;
  }).join('');
  const bolts = (cx: number, y: number, fill: string, stroke: string): string =>
    [-1, 1]
      .flatMap((sx) =>
        [-1, 1].map(
          (sy) =>
            `<circle cx="${cx + sx * 40}" cy="${y + sy * 28}" r="9" fill="${fill}" stroke="${stroke}" stroke-width="2.5"/>`,
        ),
      )
      .join('');
  const bars = (y: number): string =>
    `<path d="M${left - r} ${y}L${left + r} ${y - 90}M${left - r} ${y + 50}L${left + r} ${y - 40}" ${line(p.print, 22, 0.9)}/>`;
  const ends = `<linearGradient id="${c.id}-ends" x1="0" x2="0" y1="0" y2="1"><stop offset="0" stop-color="#000" stop-opacity="0.25"/><stop offset="0.12" stop-color="#000" stop-opacity="0"/><stop offset="0.88" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.25"/></linearGradient>
<linearGradient id="${c.id}-side" x1="0" x2="1" y1="0" y2="0"><stop offset="0" stop-color="#fff" stop-opacity="0.12"/><stop offset="0.5" stop-color="#fff" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.16"/></linearGradient>
`;
  const graphicSide = `<g transform="${tilt(left, -4)}">
<path d="${outline(left)}" transform="translate(12 8)" fill="${mix(wood, '#000000', 0.3)}"/>
<path d="${outline(left)}" transform="translate(7 4)" fill="${wood}"/>
<path d="${outline(left)}" ${solid(p.base, c)}/>
<clipPath id="${c.id}-l"><path d="${outline(left)}"/></clipPath>
<g clip-path="url(#${c.id}-l)">
<path d="${grain}" ${line(grainColor, 3, 0.35)}/>
${bars(top + 330)}${bars(bottom - 200)}
${print(c, left, (top + bottom) / 2 + 10, 150, 520, -90)}
${bolts(left, top + 250, p.inside, p.hi2)}${bolts(left, bottom - 250, p.inside, p.hi2)}
<rect x="${left - r}" y="${top}" width="${w}" height="${bottom - top}" fill="url(#${c.id}-ends)"/>
<rect x="${left - r}" y="${top}" width="${w}" height="${bottom - top}" fill="url(#${c.id}-side)"/>
</g>
<path d="${outline(left)}" ${line(p.outline, 4)}/>
</g>`;
  const gripSide = `<g transform="${tilt(right, 4)}">
<path d="${outline(right)}" transform="translate(10 8)" fill="${mix(wood, '#000000', 0.3)}"/>
<path d="${outline(right)}" fill="${p.base}" stroke="${p.outline}" stroke-width="12"/>
<path d="${outline(right)}" transform="translate(${right} ${(top + bottom) / 2}) scale(0.975 0.994) translate(${-right} ${-(top + bottom) / 2})" fill="#2a2a2c" stroke="#8a8a8e" stroke-width="3"/>
<clipPath id="${c.id}-r"><path d="${outline(right)}"/></clipPath>
<g clip-path="url(#${c.id}-r)">
<path d="${grit(right - r, top, w, bottom - top)}" ${dash('#48484c', 2.6, '0.1 13', 1)}/>
<path d="${grit(right - r + 6, top + 7, w, bottom - top)}" ${dash('#1a1a1c', 2.4, '0.1 17', 1)}/>
${bolts(right, top + 250, '#c4c7cc', '#6d7076')}${bolts(right, bottom - 250, '#c4c7cc', '#6d7076')}
<rect x="${right - r}" y="${top}" width="${w}" height="${bottom - top}" fill="url(#${c.id}-ends)"/>
<rect x="${right - r}" y="${top}" width="${w}" height="${bottom - top}" fill="url(#${c.id}-side)"/>
</g>
</g>`;
  return {
    box,
    silhouette: `<path d="${outline(left)}" transform="${tilt(left, -4)}"/><path d="${outline(right)}" transform="${tilt(right, 4)}"/>`,
    body: ends + gripSide + graphicSide,
    over: '',
    shade: false,
  };
}

function drawSocks(c: Ctx): GarmentArt {
  const { p } = c;
  const sock = `M560 300H800L806 860C806 900 830 930 870 950L1130 1070C1200 1104 1214 1170 1180 1220C1146 1270 1086 1280 1030 1252L640 1064C584 1036 556 990 556 930Z`;
  const box: Box = { x: 520, y: 250, w: 740, h: 1050 };
  const stripes = `M562 470H800M562 520H800`;
  const ribs = Array.from({ length: 12 }, (_, i) => `M${f(576 + i * 19.5)} 310V450`).join('');
  const heel = `M556 930C556 990 584 1036 640 1064L700 1092C660 1040 652 980 690 930C650 940 590 940 556 930Z`;
  const toe = `M1090 1050L1130 1070C1200 1104 1214 1170 1180 1220C1146 1270 1086 1280 1030 1252L1000 1238C1060 1200 1090 1120 1090 1050Z`;
  const accent = p.print;
  const back = `<g transform="translate(90 -50)"><path d="${sock}" ${solid(p.lo, c)}/><path d="${stripes}" ${line(mix(accent, '#000000', 0.25), 26)}/></g>`;
  const body = `${back}<path d="${sock}" ${solid(p.base, c)}/>`;
  const over = `<path d="${ribs}" ${line(p.lo, 5, 0.5)}/>
<path d="M560 450H800" ${line(p.outline, 3, 0.7)}/>
<path d="${stripes}" ${line(accent, 26)}/>
<path d="${heel}" fill="${accent}" stroke="${p.outline}" stroke-width="3.5"/>
<path d="${toe}" fill="${accent}" stroke="${p.outline}" stroke-width="3.5"/>
<path d="M600 560C604 700 604 820 610 920" ${line(p.hi, 30, 0.35)}/>
<path d="M806 860C806 900 830 930 870 950L1100 1056" ${line(p.lo, 22, 0.35)}/>
${print(c, 680, 700, 46, 150, -90)}`;
  return {
    box,
    silhouette: `<path d="${sock}"/><path d="${sock}" transform="translate(90 -50)"/>`,
    body,
    over,
  };
}

function drawGarment(kind: ArtKind, c: Ctx): GarmentArt {
  switch (kind) {
    case 'tee':
      return drawTee(c, false);
    case 'long-sleeve':
      return drawTee(c, true);
    case 'hoodie':
      return drawHoodie(c, false);
    case 'zip-hoodie':
      return drawHoodie(c, true);
    case 'cap':
      return drawCap(c);
    case 'beanie':
      return drawBeanie(c);
    case 'tote':
      return drawTote(c);
    case 'backpack':
      return drawBackpack(c);
    case 'deck':
      return drawDeck(c);
    case 'socks':
      return drawSocks(c);
  }
}

// ---------------------------------------------------------------------------------------------
// scenes

interface Placement {
  kind: ArtKind;
  color: string;
  accent?: string;
  graphic?: string;
  /** centre x and floor y of the placed garment, and its largest dimension */
  cx: number;
  floor: number;
  size: number;
  rotate?: number;
  /** raise short objects so their middle sits here instead of on the floor line */
  centerY?: number;
  /** shadow colour strength, 0..1 */
  shadow?: number;
  /** laid flat and lit from above: no floor, a soft even shadow, less volume in the shading */
  flat?: boolean;
  /** a close-up: the cloth's knit drawn over the piece */
  knit?: boolean;
}

/**
 * Soft cast shadow from stacked translucent strokes: a Gaussian blur filter looks the same
 * but was most of librsvg's render time per image (bench/README.md, "Figures that were in code comments").
 */
function castShadow(silhouette: string, strength: number, offset: Pt = [14, 24]): string {
  const layers: [number, number][] = [
    [64, 0.022],
    [44, 0.026],
    [26, 0.03],
    [10, 0.034],
  ];
  const strokes = layers
    .map(([w, o]) => `<g stroke-width="${w}" stroke-opacity="${(o * strength).toFixed(3)}">${silhouette}</g>`)
    .join('');
  return `<g transform="translate(${offset[0]} ${offset[1]})" fill="none" stroke="#000" stroke-linejoin="round">${strokes}<g stroke="none" fill="#000" fill-opacity="${(0.05 * strength).toFixed(3)}">${silhouette}</g></g>`;
}

interface Fitted {
  art: GarmentArt;
  /** scale and offset from the drawing's coordinates to the scene's */
  s: number;
  tx: number;
  ty: number;
  floor: number;
}

function fitGarment(id: string, pl: Placement): Fitted {
  const art = drawGarment(pl.kind, { id, p: makePalette(pl.color, pl.accent), graphic: pl.graphic });
  const { box } = art;
  const s = pl.size / Math.max(box.w, box.h);
  const floor = pl.centerY === undefined ? pl.floor : Math.min(pl.floor, pl.centerY + (box.h * s) / 2);
  return { art, s, tx: pl.cx - (box.x + box.w / 2) * s, ty: floor - (box.y + box.h) * s, floor };
}

/**
 * Fine knit ribs for close-ups (at full-view scale they would only shimmer): plain vertical strokes,
 * as a <pattern> of stitches cost librsvg many times the rest of the drawing (bench/README.md, "Figures
 * that were in code comments").
 */
function knit(box: Box, dark: boolean): string {
  const ink = dark ? '#fff' : '#000';
  const wales = Array.from({ length: Math.ceil(box.w / 6) }, (_, i) => `M${box.x + i * 6} ${box.y}v${box.h}`).join('');
  return `<path data-shade="1" d="${wales}" fill="none" stroke="${ink}" stroke-opacity="${dark ? 0.08 : 0.07}" stroke-width="1.6"/>`;
}

/** A garment group fitted into the scene, with its floor and cast shadows. */
function placeGarment(id: string, pl: Placement, fitted = fitGarment(id, pl)): string {
  const { art: g, s, tx, ty, floor } = fitted;
  const { box } = g;
  const rot = pl.rotate ? ` rotate(${pl.rotate} ${f(box.x + box.w / 2)} ${f(box.y + box.h / 2)})` : '';
  const shadow = pl.shadow ?? 1;
  const floorW = box.w * s * 0.46;
  const palette = makePalette(pl.color);
  const floorShadow = pl.flat
    ? ''
    : `<ellipse cx="${f(pl.cx)}" cy="${f(floor + 18 * s)}" rx="${f(floorW)}" ry="${f(38 * s + 10)}" fill="url(#floor)" opacity="${shadow}"/>\n`;
  return `${floorShadow}<g transform="translate(${f(tx)} ${f(ty)}) scale(${s.toFixed(4)})${rot}">
${castShadow(g.silhouette, shadow, pl.flat ? [6, 12] : [14, 24])}
${g.body}
<clipPath id="${id}-clip">${g.silhouette}</clipPath>
<g clip-path="url(#${id}-clip)">${g.under ?? ''}${g.shade === false ? '' : cylinder({ id, p: palette }, box, pl.flat ? 0.6 : 1)}${pl.knit ? knit(box, palette.dark) : ''}${g.over}</g>
</g>`;
}

const floorGradient = `<radialGradient id="floor"><stop offset="0" stop-color="#000" stop-opacity="0.32"/><stop offset="0.6" stop-color="#000" stop-opacity="0.12"/><stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>`;

/**
 * Where a close-up looks, in the drawing's own coordinates: the centre and the side of a square
 * (collar, label and the top of the print on tops; the front panel of a cap; the print of a bag).
 */
const detailFocus: Record<ArtKind, { cx: number; cy: number; span: number }> = {
  tee: { cx: 800, cy: 440, span: 470 },
  'long-sleeve': { cx: 800, cy: 480, span: 560 },
  hoodie: { cx: 800, cy: 560, span: 620 },
  'zip-hoodie': { cx: 716, cy: 560, span: 560 },
  cap: { cx: 760, cy: 700, span: 560 },
  beanie: { cx: 800, cy: 880, span: 520 },
  tote: { cx: 800, cy: 960, span: 560 },
  backpack: { cx: 800, cy: 1040, span: 480 },
  deck: { cx: 640, cy: 800, span: 620 },
  socks: { cx: 720, cy: 760, span: 600 },
};

/** The shop's image well (client/styles.css --color-bone): the pieces sit on the page's own paper. */
export const ART_BACKGROUND = '#ebe9e2';

/**
 * A 1600x1600 flat-lay (the piece laid out on paper, lit from above) or a close-up of the same
 * drawing (`view: 'detail'`: the viewBox narrowed onto the collar, label or print, knit showing).
 */
export function buildProductSvg(opts: Omit<ProductArtOptions, 'outDir' | 'key'>): string {
  const detail = opts.view === 'detail';
  const pl: Placement = {
    kind: opts.kind,
    color: opts.color,
    accent: opts.accent,
    graphic: opts.graphic,
    cx: 800,
    floor: 1340,
    centerY: 800,
    size: 1200,
    shadow: 0.8,
    flat: true,
    knit: detail,
  };
  const fitted = fitGarment('g', pl);
  let view = '0 0 1600 1600';
  if (detail) {
    const d = detailFocus[opts.kind];
    const span = d.span * fitted.s;
    view = `${f(fitted.tx + d.cx * fitted.s - span / 2)} ${f(fitted.ty + d.cy * fitted.s - span / 2)} ${f(span)} ${f(span)}`;
  }
  // Flat paper, the colour of the image well behind it, so a picture has no visible edge on a card or in the zoom.
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${ART_SIZE}" height="${ART_SIZE}" viewBox="${view}">
<rect x="-800" y="-800" width="3200" height="3200" fill="${ART_BACKGROUND}"/>
${placeGarment('g', pl, fitted)}
</svg>`;
}

const categoryScenes: Record<
  string,
  { bg: [string, string]; word: string; items: Omit<Placement, 'floor'>[] }
> = {
  tshirts: {
    bg: ['#f26b38', '#c9431c'],
    word: 'TEES',
    items: [
      { kind: 'tee', color: '#2e5a3c', graphic: 'NO.50', cx: 430, size: 560, rotate: -6 },
      { kind: 'long-sleeve', color: '#f5f3ee', graphic: 'FIFTY', cx: 1170, size: 560, rotate: 6 },
      { kind: 'tee', color: '#121212', graphic: 'FIFTY', cx: 800, size: 660 },
    ],
  },
  hoodies: {
    bg: ['#2a6f97', '#173c57'],
    word: 'HOODIES',
    items: [
      { kind: 'zip-hoodie', color: '#9a9a9a', graphic: 'FIFTY', cx: 430, size: 580, rotate: -5 },
      { kind: 'hoodie', color: '#f26b38', graphic: 'RIOT', cx: 1170, size: 580, rotate: 5 },
      { kind: 'hoodie', color: '#111111', graphic: 'NO.50', cx: 800, size: 690 },
    ],
  },
  accessories: {
    bg: ['#2f4f3a', '#1b3024'],
    word: 'GEAR',
    items: [
      { kind: 'deck', color: '#d8c39a', graphic: 'FIFTY', cx: 330, size: 700, rotate: -12 },
      { kind: 'tote', color: '#efe6d2', graphic: 'FIFTY', cx: 1290, size: 540 },
      { kind: 'beanie', color: '#f26b38', graphic: 'FIFTY', cx: 1010, size: 400 },
      { kind: 'cap', color: '#111111', graphic: '50', cx: 660, size: 480 },
    ],
  },
};

export const categoryArtSlugs = Object.keys(categoryScenes);

/** A 1600x1000 category banner as SVG markup. */
export function buildCategorySvg(slug: string): string {
  const scene = categoryScenes[slug];
  if (!scene) throw new Error(`No category art for "${slug}"`);
  const items = scene.items
    .map((it, i) => placeGarment(`c${i}`, { ...it, floor: 930, shadow: 0.9 }))
    .join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1000" viewBox="0 0 1600 1000">
<defs>
<radialGradient id="bg" cx="0.5" cy="0.4" r="0.8"><stop offset="0" stop-color="${scene.bg[0]}"/><stop offset="1" stop-color="${scene.bg[1]}"/></radialGradient>
${floorGradient}
</defs>
<rect width="1600" height="1000" fill="url(#bg)"/>
<g opacity="0.2">${typeset(scene.word, { cx: 800, cy: 230, height: 300, maxWidth: 1480, color: '#ffffff', weight: 1.8 })}</g>
<rect y="930" width="1600" height="70" fill="#000" opacity="0.08"/>
${items}
</svg>`;
}

// ---------------------------------------------------------------------------------------------
// output

const KEY = /^[a-z0-9][a-z0-9-]{0,120}$/;

/**
 * Drawn art is cached by content: the SVG, the widths and the WebP settings hashed together, so every
 * shop started from this checkout (tests and benches spawn many) copies the files instead of
 * rasterising them again (most of a first start: bench/README.md, "Demo art cache"), and any change to the
 * drawing misses the cache.
 * A cache that cannot be written (read-only install) is skipped.
 */
export const ART_CACHE_DIR = path.join(projectRoot, 'node_modules', '.cache', 'fifty-demo-art');
const ART_CACHE_VERSION = 1;

function artFileNames(key: string): string[] {
  return ART_WIDTHS.map((width) => (width === ART_WIDTHS[0] ? `${key}.webp` : `${key}-${width}.webp`));
}

async function copyAll(fromDir: string, toDir: string, names: readonly string[]): Promise<void> {
  await Promise.all(names.map((n) => copyFile(path.join(fromDir, n), path.join(toDir, n))));
}

/** Copies a cached drawing of `svg` into outDir; false when it is not cached. */
async function fromCache(entry: string, outDir: string, key: string): Promise<boolean> {
  try {
    const names = artFileNames(key);
    const present = new Set(await readdir(entry));
    if (!names.every((n) => present.has(n))) return false;
    await copyAll(entry, outDir, names);
    return true;
  } catch {
    return false;
  }
}

/** Stores a drawing (written to a private folder, renamed into place: concurrent starts never see half of one). */
async function toCache(entry: string, outDir: string, key: string): Promise<void> {
  const tmp = `${entry}.${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  try {
    await mkdir(tmp, { recursive: true });
    await copyAll(outDir, tmp, artFileNames(key));
    await rename(tmp, entry);
  } catch {
    // Another start stored it first, or the cache is not writable: the files in outDir are what count.
  } finally {
    await rm(tmp, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Runs a task when one of a fixed number of slots is free. */
type Slots = <T>(task: () => Promise<T>) => Promise<T>;
const unlimited: Slots = (task) => task();

/** At most `n` tasks at a time, the rest queued in order. */
function slots(n: number): Slots {
  let free = Math.max(1, n);
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (free === 0) await new Promise<void>((resolve) => waiting.push(resolve));
    else free--;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}

/**
 * Rasterise once, then derive each width from the same pixels (or copy them from the cache).
 * `raster` bounds the rasterising (CPU) only: cache copies (file I/O) need no such bound.
 */
async function writeWidths(
  svg: string,
  outDir: string,
  key: string,
  cacheDir: string | null = ART_CACHE_DIR,
  raster: Slots = unlimited,
): Promise<void> {
  if (!KEY.test(key)) throw new Error(`Invalid art key: ${key}`);
  await mkdir(outDir, { recursive: true });
  if (cacheDir === null) return raster(() => rasterise(svg, outDir, key));
  const hash = crypto
    .createHash('sha256')
    .update(JSON.stringify({ v: ART_CACHE_VERSION, key, widths: ART_WIDTHS, webp: WEBP }))
    // typeset's clip ids count up per process (type1, type2…): the same drawing under other names.
    .update(svg.replace(/\btype\d+\b/g, 'type'))
    .digest('hex')
    .slice(0, 32);
  const entry = path.join(cacheDir, hash);
  if (await fromCache(entry, outDir, key)) return;
  await raster(() => rasterise(svg, outDir, key));
  await toCache(entry, outDir, key);
}

async function rasterise(svg: string, outDir: string, key: string): Promise<void> {
  // Loaded here, not at import: the server imports the seed module but draws art only on a first start.
  const sharp = (await import('sharp')).default;
  const { data, info } = await sharp(Buffer.from(svg))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } } as const;
  const names = artFileNames(key);
  await Promise.all(
    ART_WIDTHS.map((width, i) => {
      const img = sharp(data, raw);
      if (width !== info.width) img.resize({ width, kernel: 'lanczos3' });
      return img.webp(WEBP).toFile(path.join(outDir, names[i]));
    }),
  );
}

export async function renderProductArt(opts: ProductArtOptions, cacheDir?: string | null, raster?: Slots): Promise<string> {
  await writeWidths(buildProductSvg(opts), opts.outDir, opts.key, cacheDir, raster);
  return `/uploads/seed/${opts.key}.webp`;
}

export async function renderCategoryArt(slug: string, outDir: string, cacheDir?: string | null, raster?: Slots): Promise<string> {
  const key = `category-${slug}`;
  await writeWidths(buildCategorySvg(slug), outDir, key, cacheDir, raster);
  return `/uploads/seed/${key}.webp`;
}

export interface SeedArt {
  /** product name -> image paths: the first colour's flat-lay, the close-up, then the other colours' flat-lays */
  products: Map<string, string[]>;
  /** category slug -> banner path */
  categories: Map<string, string>;
}

/**
 * Render every image of the demo catalogue into outDir (normally DATA_DIR/uploads/seed). `cacheDir`:
 * where drawings are cached (default ART_CACHE_DIR; null draws everything).
 */
export async function renderSeedArt(outDir: string, concurrency = 2, opts: { cacheDir?: string | null } = {}): Promise<SeedArt> {
  type Job = () => Promise<void>;
  const products = new Map<string, string[]>();
  const categories = new Map<string, string>();
  const jobs: Job[] = [];
  // `concurrency` drawings rasterise at a time (libuv's threads); copies from the cache, the usual
  // case (every e2e and bench shop), run eight at a time.
  const raster = slots(concurrency);
  for (const cat of seedCategories) {
    jobs.push(async () => {
      categories.set(cat.slug, await renderCategoryArt(cat.slug, outDir, opts.cacheDir, raster));
    });
  }
  for (const product of seedProducts) {
    const imageJobs = seedImageJobs(product);
    products.set(
      product.name,
      imageJobs.map((j) => j.path),
    );
    for (const j of imageJobs) {
      jobs.push(async () => {
        await renderProductArt({ ...product.art, color: j.color.value, view: j.view, outDir, key: j.key }, opts.cacheDir, raster);
      });
    }
  }
  await mapLimit(jobs, Math.max(8, concurrency), (job) => job());
  return { products, categories };
}
