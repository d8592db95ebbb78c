import { loadStripe, type Stripe } from '@stripe/stripe-js';

/** One Stripe.js load per publishable key for the life of the page (checkout's payment form, a draw's card). */
const stripeByKey = new Map<string, Promise<Stripe | null>>();

export function stripeFor(key: string): Promise<Stripe | null> {
  let promise = stripeByKey.get(key);
  if (!promise) {
    promise = loadStripe(key);
    stripeByKey.set(key, promise);
  }
  return promise;
}
