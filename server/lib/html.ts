/** Text safe inside HTML (element content and quoted attributes): pages, and every e-mail's HTML part. */
export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

export function escapeXml(s: string): string {
  return escapeHtml(s).replace(/&#39;/g, '&apos;');
}
