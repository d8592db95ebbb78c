import type { ImgHTMLAttributes } from 'react';

// Seed and uploaded images are 1600 px WebP with `-800` and `-400` siblings; other URLs get no srcset.
const VARIANT_RE = /^(\/uploads\/.+)\.webp$/;

/** `srcset` for an `/uploads/...webp` image, or undefined for anything else. */
export function buildSrcSet(src: string): string | undefined {
  const m = VARIANT_RE.exec(src);
  if (!m || /-(400|800)$/.test(m[1])) return undefined;
  return `${m[1]}-400.webp 400w, ${m[1]}-800.webp 800w, ${src} 1600w`;
}

export interface ProductImageProps extends Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'alt'> {
  src: string;
  alt: string;
  /** CSS `sizes`; defaults to a 4/2-column grid cell */
  sizes?: string;
  /** The LCP image: loaded eagerly with high fetch priority. */
  priority?: boolean;
  width?: number;
  height?: number;
}

export function ProductImage({
  src,
  alt,
  sizes,
  priority = false,
  width = 1600,
  height = 1600,
  ...rest
}: ProductImageProps) {
  const srcSet = buildSrcSet(src);
  return (
    <img
      src={srcSet ? src.replace(/\.webp$/, '-800.webp') : src}
      srcSet={srcSet}
      sizes={srcSet ? (sizes ?? '(min-width: 1024px) 25vw, 50vw') : undefined}
      alt={alt}
      width={width}
      height={height}
      loading={priority ? 'eager' : 'lazy'}
      decoding={priority ? 'auto' : 'async'}
      fetchPriority={priority ? 'high' : undefined}
      {...rest}
    />
  );
}
