/** Our uploads have a 400 px WebP sibling; thumbnails use it instead of the 1600 px original. */
export function thumbnailSrc(src: string): string {
  const m = /^(\/uploads\/.+?)(-400|-800)?\.webp$/.exec(src);
  return m ? `${m[1]}-400.webp` : src;
}
