// Placeholder screen; its issue completes it.
export default function CheckoutPage() {
  return <div className="mx-auto max-w-7xl px-4 py-10"><h1 className="font-display text-4xl uppercase">checkout</h1></div>;
}
