// Placeholder: the storefront issue completes the footer columns.
export function SiteFooter() {
  return <footer className="border-t border-black/10 px-4 py-10 text-sm">FIFTY</footer>;
}
