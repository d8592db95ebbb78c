import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

// Stylised flat-illustration packshots for the demo catalogue, drawn as SVG and rasterised
// with sharp, so a fresh install has real product photos without shipping binary assets.

export type ArtKind =
  | 'tee'
  | 'long-sleeve'
  | 'hoodie'
  | 'zip-hoodie'
  | 'cap'
  | 'beanie'
  | 'tote'
  | 'backpack'
  | 'deck'
  | 'socks';

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
  outDir: string;
  /** file name stem: lower-case letters, digits and dashes */
  key: string;
}

export const ART_SIZE = 1600;
export const ART_WIDTHS = [1600, 800, 400] as const;
const WEBP = { quality: 80, effort: 4 } as const;

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
  return `#${[r, g, b].map((v) => Math.round(Math.min(255, Math.max(0, v))).toString(16).padStart(2, '0')).join('')}`;
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
    outline: lum > 0.55 ? mix(base, '#3a3630', 0.3) : dark ? mix(base, '#ffffff', 0.2) : mix(base, '#000000', 0.4),
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
const GLYPHS: Record<string, { w: number; d: string; l?: number; r?: number }> = {
  A: { w: 6.4, d: 'M0 10L3.2 0L6.4 10M1.2 6.6H5.2', l: -0.3, r: -0.3 },
  B: { w: 6, d: 'M0 0V10H3.6C5.1 10 6 9 6 7.5C6 6 5.1 5 3.5 5H0M3.3 5C4.6 5 5.5 4.1 5.5 2.5C5.5 1 4.6 0 3.3 0H0' },
  C: { w: 6, d: 'M6 2.2C5.4 0.8 4.4 0 3.1 0C1.2 0 0 2 0 5C0 8 1.2 10 3.1 10C4.4 10 5.4 9.2 6 7.8' },
  D: { w: 6, d: 'M0 0V10H2.7C4.9 10 6 8 6 5C6 2 4.9 0 2.7 0Z' },
  E: { w: 5.4, d: 'M5.4 0H0V10H5.4M0 5H4.8' },
  F: { w: 5.4, d: 'M5.4 0H0V10M0 5H4.8', l: 0, r: -0.7 },
  G: { w: 6.2, d: 'M6 2.2C5.4 0.8 4.4 0 3.1 0C1.2 0 0 2 0 5C0 8 1.2 10 3.1 10C5 10 6.2 8.6 6.2 6.2V5.3H3.4' },
  H: { w: 6, d: 'M0 0V10M6 0V10M0 5H6' },
  I: { w: 0, d: 'M0 0V10' },
  J: { w: 5, d: 'M5 0V7C5 9 4 10 2.5 10C1 10 0 9 0 7.4' },
  K: { w: 6, d: 'M0 0V10M6 0L0.6 6.4M2.4 4.4L6 10' },
  L: { w: 5.2, d: 'M0 0V10H5.2', l: 0, r: -0.8 },
  M: { w: 7.4, d: 'M0 10V0L3.7 7.2L7.4 0V10' },
  N: { w: 6, d: 'M0 10V0L6 10V0' },
  O: { w: 6.4, d: 'M3.2 0C1.2 0 0 2 0 5C0 8 1.2 10 3.2 10C5.2 10 6.4 8 6.4 5C6.4 2 5.2 0 3.2 0Z' },
  P: { w: 5.8, d: 'M0 10V0H3.3C5 0 5.8 1.2 5.8 2.8C5.8 4.4 5 5.6 3.3 5.6H0', l: 0, r: -0.3 },
  Q: { w: 6.4, d: 'M3.2 0C1.2 0 0 2 0 5C0 8 1.2 10 3.2 10C5.2 10 6.4 8 6.4 5C6.4 2 5.2 0 3.2 0ZM4 7L6.6 10.4' },
  R: { w: 6, d: 'M0 10V0H3.4C5.1 0 5.9 1.2 5.9 2.8C5.9 4.4 5.1 5.6 3.4 5.6H0M3.4 5.6L6 10' },
  S: { w: 5.8, d: 'M5.6 2C5 0.7 4.1 0 2.9 0C1.4 0 0.3 1 0.3 2.6C0.3 6.1 5.8 4.3 5.8 7.4C5.8 9 4.6 10 2.9 10C1.6 10 0.6 9.3 0 8' },
  T: { w: 6, d: 'M0 0H6M3 0V10', l: -0.5, r: -0.5 },
  U: { w: 6, d: 'M0 0V6.8C0 9 1.2 10 3 10C4.8 10 6 9 6 6.8V0' },
  V: { w: 6.4, d: 'M0 0L3.2 10L6.4 0', l: -0.3, r: -0.3 },
  W: { w: 8.6, d: 'M0 0L2.1 10L4.3 1.6L6.5 10L8.6 0', l: -0.2, r: -0.2 },
  X: { w: 6.2, d: 'M0 0L6.2 10M6.2 0L0 10' },
  Y: { w: 6.4, d: 'M0 0L3.2 5.4L6.4 0M3.2 5.4V10', l: -0.4, r: -0.4 },
  Z: { w: 5.8, d: 'M0.2 0H5.8L0 10H5.8' },
  '0': { w: 5.8, d: 'M2.9 0C1.1 0 0 2 0 5C0 8 1.1 10 2.9 10C4.7 10 5.8 8 5.8 5C5.8 2 4.7 0 2.9 0Z' },
  '1': { w: 3.2, d: 'M0 2.2L3.2 0V10', l: -0.4, r: 0 },
  '2': { w: 5.8, d: 'M0.2 2.7C0.5 1 1.6 0 3 0C4.6 0 5.7 1 5.7 2.8C5.7 5 3.2 6.5 0 10H5.8' },
  '3': { w: 5.8, d: 'M0.3 1.6C0.9 0.5 1.9 0 3 0C4.5 0 5.5 1 5.5 2.5C5.5 3.9 4.5 4.8 3 4.8H2M3 4.8C4.8 4.8 5.8 5.9 5.8 7.4C5.8 9 4.6 10 3 10C1.7 10 0.6 9.4 0 8.3' },
  '4': { w: 6, d: 'M4.6 10V0L0 7H6' },
  '5': { w: 5.8, d: 'M5.5 0H0.9L0.4 4.7C1.1 4.1 2 3.8 3 3.8C4.8 3.8 5.8 5.1 5.8 6.9C5.8 8.8 4.6 10 2.9 10C1.7 10 0.7 9.4 0 8.4' },
  '6': { w: 5.8, d: 'M5.3 1C4.8 0.4 4 0 3.1 0C1.1 0 0 2.1 0 5.4C0 8.5 1.1 10 2.9 10C4.7 10 5.8 8.7 5.8 6.9C5.8 5.1 4.7 3.9 3 3.9C1.7 3.9 0.6 4.6 0 5.8' },
  '7': { w: 5.6, d: 'M0 0H5.6L1.8 10', l: 0, r: -0.3 },
  '8': { w: 5.8, d: 'M2.9 4.7C1.5 4.7 0.5 3.8 0.5 2.4C0.5 1 1.5 0 2.9 0C4.3 0 5.3 1 5.3 2.4C5.3 3.8 4.3 4.7 2.9 4.7ZM2.9 4.7C1.2 4.7 0 5.8 0 7.4C0 9 1.2 10 2.9 10C4.6 10 5.8 9 5.8 7.4C5.8 5.8 4.6 4.7 2.9 4.7Z' },
  '9': { w: 5.8, d: 'M0.5 9C1 9.6 1.8 10 2.7 10C4.7 10 5.8 7.9 5.8 4.6C5.8 1.5 4.7 0 2.9 0C1.1 0 0 1.3 0 3.1C0 4.9 1.1 6.1 2.8 6.1C4.1 6.1 5.2 5.4 5.8 4.2' },
  '.': { w: 0, d: 'M0 7.8V10' },
  '-': { w: 3.6, d: 'M0 5.6H3.6' },
  '/': { w: 4.4, d: 'M0 10.4L4.4 -0.4' },
  "'": { w: 0, d: 'M0 0V3' },
  '&': { w: 6.6, d: 'M6.4 10L1.4 4C0.8 3.2 0.7 2.7 0.7 2.2C0.7 0.9 1.7 0 2.9 0C4.1 0 5 0.8 5 2C5 3.3 4 4 2.2 5.2C0.8 6.1 0 7 0 8C0 9.2 1 10 2.6 10C4.2 10 5.6 9 6.6 6.8' },
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
function layoutLine(line: string, weight: number): { glyphs: { d: string; x: number }[]; width: number } {
  const chars = [...line].map((ch) => GLYPHS[ch] ?? GLYPHS[' ']);
  let x = weight / 2;
  const glyphs = chars.map((g, i) => {
    if (i > 0) x += g.l ?? 0;
    const at = x;
    x += g.w;
    if (i < chars.length - 1) x += weight + GAP + (g.r ?? 0);
    return { d: g.d, x: at };
  });
  return { glyphs, width: x + weight / 2 };
}

function typeset(text: string, o: TypeOptions): string {
  const weight = o.weight ?? 2.2;
  const lines = text.toUpperCase().split('\n').map((l) => layoutLine(l, weight));
  const lead = 14;
  const widest = Math.max(...lines.map((l) => l.width));
  let scale = o.height / 10;
  if (o.maxWidth && widest * scale > o.maxWidth) scale = o.maxWidth / widest;
  const blockH = 10 + lead * (lines.length - 1);
  const paths = lines
    .map((l, li) => {
      const y = -blockH / 2 + li * lead;
      return l.glyphs
        .filter((g) => g.d)
        .map((g) => `<path transform="translate(${f(g.x - l.width / 2)} ${f(y)})" d="${g.d}"/>`)
        .join('');
    })
    .join('');
  const rot = o.rotate ? ` rotate(${o.rotate})` : '';
  return `<g transform="translate(${f(o.cx)} ${f(o.cy)})${rot} scale(${scale.toFixed(3)})" fill="none" stroke="${o.color}" stroke-width="${weight}" stroke-linejoin="miter" stroke-miterlimit="2" stroke-linecap="butt">${paths}</g>`;
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
  /** details drawn over the clipped shading */
  over: string;
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

function drawTee(c: Ctx, long: boolean): GarmentArt {
  const { p } = c;
  const sleeve: Seg[] = long
    ? [
        { C: [[418, 392], [372, 470], [352, 600]] },
        { L: [318, 1118] },
        { L: [322, 1212] },
        { L: [420, 1212] },
        { L: [420, 1118] },
        { C: [[440, 900], [478, 720], [506, 612]] },
      ]
    : [
        { C: [[412, 392], [346, 478], [296, 640]] },
        { L: [444, 716] },
        { C: [[470, 668], [494, 636], [506, 608]] },
      ];
  const bodyPath = symmetric(
    [800, 396],
    [
      { Q: [[736, 394], [690, 320]] },
      { L: [474, 372] },
      ...sleeve,
      { C: [[500, 780], [500, 1100], [498, 1296]] },
      { Q: [[650, 1310], [800, 1308]] },
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
    ? both((m) => [0, 1, 2, 3, 4, 5, 6, 7].map((i) => `M${m([332 + i * 11.5, 1140])}L${m([333 + i * 11.5, 1204])}`).join(''))
    : '';
  const seams = long
    ? both((m) => `M${m([474, 374])}C${m([470, 450])} ${m([486, 540])} ${m([506, 612])}`)
    : both((m) => `M${m([474, 374])}C${m([472, 450])} ${m([488, 548])} ${m([506, 608])}`);
  const folds = [
    both((m) => `M${m([520, 640])}C${m([580, 700])} ${m([610, 760])} ${m([612, 840])}C${m([590, 770])} ${m([560, 700])} ${m([520, 640])}Z`),
    both((m) => `M${m([560, 1296])}C${m([590, 1220])} ${m([600, 1150])} ${m([596, 1080])}C${m([612, 1160])} ${m([610, 1230])} ${m([590, 1300])}Z`),
  ];
  const body = `<path d="${backNeck}" ${solid(p.inside, c)}/>
<path d="M690 320C736 344 864 344 910 320" ${line(p.lo, 16)}/>
<path d="${bodyPath}" ${solid(p.base, c)}/>`;
  const over = `<path d="${folds[0]}" fill="${p.lo}" opacity="0.55"/>
<path d="${folds[1]}" fill="${p.lo}" opacity="0.45"/>
<path d="M720 470C700 700 700 960 730 1240" ${line(p.hi, 38, 0.35)}/>
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
      { C: [[404, 410], [362, 490], [344, 620]] },
      { L: [300, 1126] },
      { L: [304, 1228] },
      { L: [424, 1228] },
      { L: [424, 1126] },
      { C: [[446, 910], [478, 740], [506, 636]] },
      { C: [[504, 800], [506, 1020], [508, 1180]] },
      { L: [512, 1296] },
      { Q: [[650, 1304], [800, 1302]] },
    ],
  );
  const hoodOuter = symmetric([800, 128], [{ C: [[650, 128], [566, 240], [592, 420]] }, { L: [800, 500] }]);
  const hoodInner = symmetric([800, 196], [{ C: [[700, 196], [640, 270], [648, 372]] }, { L: [800, 476] }]);
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
  const strings = zip
    ? ''
    : `<path d="M758 452C752 540 742 620 748 700" ${line(p.hi2, 12)}/><path d="M842 452C850 530 862 600 854 686" ${line(p.hi2, 12)}/>
<rect x="738" y="696" width="20" height="44" rx="5" fill="${p.metal}" stroke="${p.outline}" stroke-width="2"/><rect x="844" y="682" width="20" height="44" rx="5" fill="${p.metal}" stroke="${p.outline}" stroke-width="2"/>
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
  const over = `<path d="${folds}" fill="${p.lo}" opacity="0.6"/>
<path d="M700 560C690 760 694 960 720 1170" ${line(p.hi, 40, 0.3)}/>
<path d="${hoodInner}" fill="${p.inside}"/>
<path d="${rim}" fill="none" stroke="${p.hi}" stroke-width="30" stroke-linejoin="round"/>
<path d="${rim}" transform="translate(800 336) scale(1.075) translate(-800 -336)" ${line(p.outline, 3.5)}/>
<path d="${rim}" transform="translate(800 336) scale(0.94) translate(-800 -336)" ${line(p.outline, 3)}/>
${strings}
<path d="${both((m) => `M${m([466, 394])}C${m([464, 480])} ${m([484, 570])} ${m([506, 636])}`)}" ${line(p.lo2, 3, 0.55)}/>
<path d="${pocket}" fill="${p.base}" stroke="${p.outline}" stroke-width="3.5" stroke-linejoin="round"/>
<path d="${pocket}" transform="translate(800 1030) scale(0.965) translate(-800 -1030)" ${dash(p.stitch, 3)}/>
<path d="${pocketOpen}" ${line(p.lo2, 9, 0.6)}/>
<path d="${waist}" ${line(p.outline, 3.5)}/>
<path d="${waistRibs}" ${line(p.lo, 4, 0.55)}/>
<path d="${both((m) => `M${m([302, 1130])}L${m([424, 1130])}`)}" ${line(p.outline, 3.5)}/>
<path d="${cuffRibs}" ${line(p.lo, 4, 0.55)}/>
${zipper}
${zip ? print(c, 676, 640, 40, 150) : print(c, 800, 780, 70, 300)}`;
  return { box, silhouette: `<path d="${bodyPath}"/><path d="${hoodOuter}"/>`, body, over };
}

function drawCap(c: Ctx): GarmentArt {
  const { p } = c;
  const crown = symmetric([800, 440], [{ C: [[600, 440], [440, 580], [424, 880]] }, { Q: [[600, 922], [800, 926]] }]);
  const brim = `M414 872C520 934 1080 934 1186 872C1250 960 1130 1100 800 1104C470 1100 350 960 414 872Z`;
  const box: Box = { x: 380, y: 420, w: 840, h: 700 };
  const brimStitch = [0, 1, 2, 3]
    .map((i) => {
      const k = 1 - i * 0.045;
      return `<path d="M442 ${f(930 + i * 2)}C${f(420 + i * 6)} ${f(1000 - i * 10)} ${f(540 + i * 10)} ${f(1080 - i * 16)} 800 ${f(1082 - i * 18)}C${f(1060 - i * 10)} ${f(1080 - i * 16)} ${f(1180 - i * 6)} ${f(1000 - i * 10)} 1158 ${f(930 + i * 2)}" ${dash(p.stitch, 3, '10 7', 0.75 * k)}/>`;
    })
    .join('');
  const panels = both((m) => `M${m([800, 452])}C${m([700, 520])} ${m([640, 700])} ${m([634, 912])}`);
  const body = `<path d="${brim}" ${solid(p.lo, c)}/>
<path d="${crown}" ${solid(p.base, c)}/>`;
  const over = `<path d="M800 452C740 500 700 600 690 700C700 780 720 860 740 918L860 918C880 860 900 780 910 700C900 600 860 500 800 452Z" fill="${p.hi}" opacity="0.4"/>
<path d="${panels}" ${line(p.lo2, 4, 0.7)}/>
<path d="${both((m) => `M${m([790, 456])}C${m([690, 524])} ${m([630, 700])} ${m([624, 912])}`)}" ${dash(p.stitch, 3, '8 6', 0.8)}/>
<path d="M800 452V920" ${line(p.lo2, 3, 0.35)}/>
<path d="M426 870Q600 912 800 916Q1000 912 1174 870" ${dash(p.stitch, 3, '9 7', 0.8)}/>
<circle cx="540" cy="640" r="10" fill="${p.lo2}" stroke="${p.stitch}" stroke-width="3"/><circle cx="1060" cy="640" r="10" fill="${p.lo2}" stroke="${p.stitch}" stroke-width="3"/>
<ellipse cx="800" cy="446" rx="40" ry="17" fill="${p.base}" stroke="${p.outline}" stroke-width="3.5"/>
<path d="M760 446Q800 432 840 446" ${line(p.hi2, 4, 0.8)}/>
<path d="M440 888C560 940 1040 940 1160 888C1150 920 1120 950 1080 962C960 940 640 940 520 962C480 950 450 920 440 888Z" fill="#000" opacity="0.18"/>
<path d="${brim}" fill="none" stroke="${p.hi}" stroke-width="6" opacity="0.0"/>
${brimStitch}
${print(c, 800, 720, 86, 300)}`;
  return { box, silhouette: `<path d="${crown}"/><path d="${brim}"/>`, body, over };
}

function drawBeanie(c: Ctx): GarmentArt {
  const { p } = c;
  const dome = symmetric([800, 330], [{ C: [[610, 330], [486, 520], [478, 860]] }, { L: [800, 860] }]);
  const cuff = `M458 820Q800 796 1142 820L1150 1080Q800 1110 450 1080Z`;
  const box: Box = { x: 440, y: 320, w: 720, h: 800 };
  const ribs = Array.from({ length: 13 }, (_, i) => {
    const t = (i + 1) / 14;
    const xb = 478 + t * 644;
    const xt = 800 + (xb - 800) * 0.16;
    return `M${f(xt)} 350C${f(xt + (xb - xt) * 0.62)} 420 ${f(xb)} 600 ${f(xb)} 830`;
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
<path d="M800 336C760 400 740 500 736 620C760 520 780 420 800 336Z" fill="${p.hi}" opacity="0.35"/>
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
  const handle = (dx: number): string => `M${610 + dx} 660C${600 + dx} 460 ${660 + dx} 312 ${800 + dx} 312C${940 + dx} 312 ${1000 + dx} 460 ${990 + dx} 660`;
  const box: Box = { x: 440, y: 280, w: 720, h: 1044 };
  const body = `<path d="${handle(-26)}" fill="none" stroke="${p.outline}" stroke-width="62" stroke-linecap="butt"/>
<path d="${handle(-26)}" fill="none" stroke="${p.lo2}" stroke-width="54" stroke-linecap="butt"/>
<path d="${bag}" ${solid(p.base, c)}/>`;
  const over = `<path d="M486 640H1114L1117 712H483Z" fill="${p.lo}" opacity="0.5"/>
<path d="M490 700H1110" ${dash(p.stitch, 3.5)}/>
<path d="M486 640L454 1300" ${line(p.lo2, 26, 0.22)}/><path d="M1114 640L1146 1300" ${line(p.lo2, 26, 0.25)}/>
<path d="M472 1290H1128" ${dash(p.stitch, 3.5)}/>
<path d="M560 760C600 960 590 1140 560 1300" ${line(p.lo, 24, 0.35)}/>
<path d="M1020 720C1060 900 1060 1100 1090 1300" ${line(p.lo, 20, 0.3)}/>
${c.graphic ? `<rect x="610" y="850" width="380" height="300" fill="none" stroke="${p.print}" stroke-width="10"/>${print(c, 800, 1000, 96, 300)}` : ''}`;
  const front = `<path d="${handle(0)}" fill="none" stroke="${p.outline}" stroke-width="62" stroke-linecap="butt"/>
<path d="${handle(0)}" fill="none" stroke="${p.base}" stroke-width="54" stroke-linecap="butt"/>
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

function drawDeck(c: Ctx): GarmentArt {
  const { p } = c;
  // Vertical deck, bottom side up; ply edge peeks out on the right.
  const w = 330;
  const top = 200;
  const bottom = 1400;
  const x0 = 800 - w / 2;
  const deck = `M${x0} ${top + w / 2}A${w / 2} ${w / 2} 0 0 1 ${x0 + w} ${top + w / 2}V${bottom - w / 2}A${w / 2} ${w / 2} 0 0 1 ${x0} ${bottom - w / 2}Z`;
  const box: Box = { x: x0 - 20, y: top - 10, w: w + 60, h: bottom - top + 20 };
  const wood = '#e3c48f';
  const grain = Array.from({ length: 7 }, (_, i) => {
    const x = x0 + 40 + i * 42;
    return `M${x} ${top + 60}C${x + 14} ${top + 400} ${x - 12} ${bottom - 400} ${x + 6} ${bottom - 60}`;
  }).join('');
  const holes = (y: number): string =>
    [-1, 1]
      .flatMap((sx) => [-1, 1].map((sy) => `<circle cx="${800 + sx * 42}" cy="${y + sy * 30}" r="8" fill="${p.inside}" stroke="${p.hi2}" stroke-width="2"/>`))
      .join('');
  const body = `<path d="${deck}" transform="translate(14 10)" fill="${mix(wood, '#000000', 0.25)}"/>
<path d="${deck}" transform="translate(9 6)" fill="${wood}"/>
<path d="${deck}" ${solid(p.base, c)}/>`;
  const noseShade = `<linearGradient id="${c.id}-ends" x1="0" x2="0" y1="0" y2="1"><stop offset="0" stop-color="#000" stop-opacity="0.22"/><stop offset="0.14" stop-color="#000" stop-opacity="0"/><stop offset="0.86" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.22"/></linearGradient>
<rect data-shade="1" x="${x0}" y="${top}" width="${w}" height="${bottom - top}" fill="url(#${c.id}-ends)"/>`;
  const over = `<path d="${grain}" ${line(p.lo, 3, 0.35)}/>
${noseShade}
<path d="M${x0 + 30} ${top + 240}L${x0 + w - 30} ${top + 440}M${x0 + 30} ${top + 300}L${x0 + w - 30} ${top + 500}" ${line(p.print, 16, 0.85)}/>
<circle cx="800" cy="${bottom - 330}" r="92" fill="none" stroke="${p.print}" stroke-width="16" opacity="0.9"/>
<circle cx="800" cy="${bottom - 330}" r="40" fill="${p.print}" opacity="0.9"/>
${print(c, 800, 760, 150, 480, -90)}
${holes(top + 250)}${holes(bottom - 250)}
<path d="M${x0 + 22} ${top + w / 2}A${w / 2 - 22} ${w / 2 - 22} 0 0 1 ${x0 + w - 22} ${top + w / 2}" ${line(p.hi2, 6, 0.5)}/>`;
  return { box, silhouette: `<path d="${deck}"/>`, body, over };
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
  return { box, silhouette: `<path d="${sock}"/><path d="${sock}" transform="translate(90 -50)"/>`, body, over };
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
  /** shadow colour strength, 0..1 */
  shadow?: number;
}

/** A garment group fitted into the scene, with its floor and cast shadows. */
function placeGarment(id: string, pl: Placement): string {
  const g = drawGarment(pl.kind, { id, p: makePalette(pl.color, pl.accent), graphic: pl.graphic });
  const { box } = g;
  const s = pl.size / Math.max(box.w, box.h);
  const tx = pl.cx - (box.x + box.w / 2) * s;
  const ty = pl.floor - (box.y + box.h) * s;
  const rot = pl.rotate ? ` rotate(${pl.rotate} ${f(box.x + box.w / 2)} ${f(box.y + box.h / 2)})` : '';
  const shadow = pl.shadow ?? 1;
  const floorW = box.w * s * 0.46;
  return `<ellipse cx="${f(pl.cx)}" cy="${f(pl.floor + 18 * s)}" rx="${f(floorW)}" ry="${f(38 * s + 10)}" fill="url(#floor)" opacity="${shadow}"/>
<g transform="translate(${f(tx)} ${f(ty)}) scale(${s.toFixed(4)})${rot}">
<g transform="translate(16 26)" fill="#000" opacity="${(0.16 * shadow).toFixed(3)}" filter="url(#soft)">${g.silhouette}</g>
${g.body}
<clipPath id="${id}-clip">${g.silhouette}</clipPath>
<g clip-path="url(#${id}-clip)">${cylinder({ id, p: makePalette(pl.color) }, box)}${g.over}</g>
</g>`;
}

const floorGradient = `<radialGradient id="floor"><stop offset="0" stop-color="#000" stop-opacity="0.32"/><stop offset="0.6" stop-color="#000" stop-opacity="0.12"/><stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>
<filter id="soft" x="-10%" y="-10%" width="120%" height="120%"><feGaussianBlur stdDeviation="14"/></filter>`;

/** The complete 1600x1600 studio packshot as SVG markup. */
export function buildProductSvg(opts: Omit<ProductArtOptions, 'outDir' | 'key'>): string {
  const lum = luminance(toHex(parseHex(opts.color)));
  // Pale garments get a slightly deeper sweep so their edges still read against it.
  const [bgTop, bgBottom] = lum > 0.6 ? ['#ebe8e2', '#d4d0c8'] : ['#f7f5f1', '#e3e0da'];
  const scene = placeGarment('g', {
    kind: opts.kind,
    color: opts.color,
    accent: opts.accent,
    graphic: opts.graphic,
    cx: 800,
    floor: 1390,
    size: 1180,
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${ART_SIZE}" height="${ART_SIZE}" viewBox="0 0 1600 1600">
<defs>
<radialGradient id="bg" cx="0.5" cy="0.36" r="0.78"><stop offset="0" stop-color="${bgTop}"/><stop offset="1" stop-color="${bgBottom}"/></radialGradient>
<linearGradient id="sweep" x1="0" x2="0" y1="0" y2="1"><stop offset="0" stop-color="#fff" stop-opacity="0"/><stop offset="0.7" stop-color="#fff" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.05"/></linearGradient>
${floorGradient}
</defs>
<rect width="1600" height="1600" fill="url(#bg)"/>
<rect width="1600" height="1600" fill="url(#sweep)"/>
${scene}
</svg>`;
}

const categoryScenes: Record<string, { bg: [string, string]; word: string; items: Omit<Placement, 'floor'>[] }> = {
  tshirts: {
    bg: ['#f26b38', '#c9431c'],
    word: 'TEES',
    items: [
      { kind: 'tee', color: '#2f4f3a', graphic: 'NO.50', cx: 420, size: 600, rotate: -6 },
      { kind: 'long-sleeve', color: '#f5f3ee', graphic: 'FIFTY', cx: 1180, size: 600, rotate: 6 },
      { kind: 'tee', color: '#121212', graphic: 'FIFTY', cx: 800, size: 720 },
    ],
  },
  hoodies: {
    bg: ['#2a6f97', '#173c57'],
    word: 'HOODIES',
    items: [
      { kind: 'zip-hoodie', color: '#9a9a9a', graphic: 'FIFTY', cx: 420, size: 620, rotate: -5 },
      { kind: 'hoodie', color: '#f26b38', graphic: 'RIOT', cx: 1180, size: 620, rotate: 5 },
      { kind: 'hoodie', color: '#111111', graphic: 'NO.50', cx: 800, size: 740 },
    ],
  },
  accessories: {
    bg: ['#2f4f3a', '#1b3024'],
    word: 'EXTRAS',
    items: [
      { kind: 'deck', color: '#d8c39a', graphic: 'FIFTY', cx: 300, size: 760, rotate: -14 },
      { kind: 'tote', color: '#efe6d2', graphic: 'FIFTY', cx: 1290, size: 560 },
      { kind: 'beanie', color: '#f26b38', graphic: 'FIFTY', cx: 1000, size: 420 },
      { kind: 'cap', color: '#111111', graphic: '50', cx: 640, size: 520 },
    ],
  },
};

export const categoryArtSlugs = Object.keys(categoryScenes);

/** A 1600x1000 category banner as SVG markup. */
export function buildCategorySvg(slug: string): string {
  const scene = categoryScenes[slug];
  if (!scene) throw new Error(`No category art for "${slug}"`);
  const items = scene.items.map((it, i) => placeGarment(`c${i}`, { ...it, floor: 930, shadow: 0.9 })).join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1000" viewBox="0 0 1600 1000">
<defs>
<radialGradient id="bg" cx="0.5" cy="0.4" r="0.8"><stop offset="0" stop-color="${scene.bg[0]}"/><stop offset="1" stop-color="${scene.bg[1]}"/></radialGradient>
${floorGradient}
</defs>
<rect width="1600" height="1000" fill="url(#bg)"/>
<g opacity="0.16">${typeset(scene.word, { cx: 800, cy: 420, height: 420, maxWidth: 1500, color: '#ffffff', weight: 1.6 })}</g>
<rect y="930" width="1600" height="70" fill="#000" opacity="0.08"/>
${items}
</svg>`;
}

// ---------------------------------------------------------------------------------------------
// output

const KEY = /^[a-z0-9][a-z0-9-]{0,120}$/;

/** Rasterise once, then derive each width from the same pixels. */
async function writeWidths(svg: string, outDir: string, key: string): Promise<void> {
  if (!KEY.test(key)) throw new Error(`Invalid art key: ${key}`);
  await mkdir(outDir, { recursive: true });
  const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } } as const;
  await Promise.all(
    ART_WIDTHS.map((width) => {
      const name = width === ART_WIDTHS[0] ? `${key}.webp` : `${key}-${width}.webp`;
      const img = sharp(data, raw);
      if (width !== info.width) img.resize({ width, kernel: 'lanczos3' });
      return img.webp(WEBP).toFile(path.join(outDir, name));
    }),
  );
}

export async function renderProductArt(opts: ProductArtOptions): Promise<string> {
  await writeWidths(buildProductSvg(opts), opts.outDir, opts.key);
  return `/uploads/seed/${opts.key}.webp`;
}

export async function renderCategoryArt(slug: string, outDir: string): Promise<string> {
  const key = `category-${slug}`;
  await writeWidths(buildCategorySvg(slug), outDir, key);
  return `/uploads/seed/${key}.webp`;
}
