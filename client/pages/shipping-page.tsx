// Placeholder screen; its issue completes it.
export default function ShippingPage() {
  return <div className="mx-auto max-w-7xl px-4 py-10"><h1 className="font-display text-4xl uppercase">shipping</h1></div>;
}
