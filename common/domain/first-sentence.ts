/**
 * "A tee. With more." → "A tee." (the whole text when it has no sentence end). Product cards show it
 * under the name and the product page's meta description starts with it; whitespace is collapsed.
 */
export function firstSentence(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  const match = /^(.+?[.!?])(?=\s|$)/.exec(trimmed);
  return match ? match[1]! : trimmed;
}
