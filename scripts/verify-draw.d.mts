export interface PublishedEntry {
  publicId: string;
  weight: number;
  rank?: number | null;
  size?: string | null;
  secondSize?: string | null;
  outcome?: string | null;
}
export interface PublishedDraw {
  commitment: string;
  seed: string | null;
  entries: PublishedEntry[];
  winners?: Array<{ publicId: string; size?: string | null }>;
}
export function rankDraw(seedHex: string, entries: ReadonlyArray<{ publicId: string; weight: number }>): Array<{ publicId: string; weight: number; key: number; rank: number }>;
export function verifyDraw(draw: unknown): string[];
