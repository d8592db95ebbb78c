import { Link } from 'wouter';

export default function NotFoundPage() {
  return (
    <div className="mx-auto max-w-3xl px-4 py-24 text-center">
      <h1 className="font-display text-5xl uppercase">Page Not Found</h1>
      <p className="mt-4 text-muted">Did you forget to add the page to the router?</p>
      <Link href="/" className="mt-8 inline-block underline">Return to Home</Link>
    </div>
  );
}
