/**
 * Owner uploads are shown in the catalogue's square frames (cards, gallery, cart; the demo art is
 * 1600 px square too). An upload of another shape is padded, never cropped: a crop, even sharp's
 * `attention` one, can cut off a sleeve, a cap's brim or a strap, and the piece is what sells. The
 * padding takes the photo's own backdrop when its edges are plain (a studio shot on white stays on
 * white, without bands); a busy edge (a street photo) is set on the shop's image well instead.
 */

/** The shop's image well behind product photos (client/styles.css --color-bone), and the seed art's paper. */
export const IMAGE_WELL = { r: 0xeb, g: 0xe9, b: 0xe2 } as const;

/** Largest spread (per channel, 0-255) the pixels along an edge may have to count as a plain backdrop. */
const PLAIN_EDGE_SPREAD = 24;

export interface SquarePadding {
  top: number;
  bottom: number;
  left: number;
  right: number;
  background: { r: number; g: number; b: number };
}

/**
 * Padding that makes an image of `width` x `height` (3- or 4-channel raw pixels in `data`) square,
 * and its colour; null when it is square already.
 */
export function squarePadding(data: Uint8Array, width: number, height: number, channels: number): SquarePadding | null {
  if (width === height) return null;
  const side = Math.max(width, height);
  const wide = width > height;
  const before = Math.floor((side - (wide ? height : width)) / 2);
  const after = side - (wide ? height : width) - before;
  // The two edges the padding will touch: top and bottom rows of a wide image, left and right columns of a tall one.
  const edge: Array<[number, number, number]> = [];
  const pick = (x: number, y: number) => {
    const at = (y * width + x) * channels;
    // Grey pixels (one or two channels) stand for all three.
    edge.push(channels < 3 ? [data[at]!, data[at]!, data[at]!] : [data[at]!, data[at + 1]!, data[at + 2]!]);
  };
  const [along, across] = wide ? [width, height] : [height, width];
  for (let i = 0; i < along; i++) {
    for (const j of [0, across - 1]) {
      if (wide) pick(i, j);
      else pick(j, i);
    }
  }
  let background: SquarePadding['background'] = IMAGE_WELL;
  const plain = [0, 1, 2].every((c) => {
    const values = edge.map((p) => p[c]!).sort((a, b) => a - b);
    // 5th to 95th percentile: a stray dust speck or a hair on the edge does not make it busy.
    return values[Math.floor(values.length * 0.95)]! - values[Math.floor(values.length * 0.05)]! <= PLAIN_EDGE_SPREAD;
  });
  if (plain) {
    const mean = (c: number) => Math.round(edge.reduce((s, p) => s + p[c]!, 0) / edge.length);
    background = { r: mean(0), g: mean(1), b: mean(2) };
  }
  return wide
    ? { top: before, bottom: after, left: 0, right: 0, background }
    : { top: 0, bottom: 0, left: before, right: after, background };
}
