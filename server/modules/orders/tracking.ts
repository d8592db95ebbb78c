/**
 * The carrier's public tracking page for a tracking number; null for "other" or an unknown carrier
 * (the e-mail then shows the number alone). The number is URL-encoded: it is what the owner typed.
 */
const TRACKING_PAGES: Record<string, (n: string) => string> = {
  usps: (n) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}`,
  ups: (n) => `https://www.ups.com/track?tracknum=${n}`,
  fedex: (n) => `https://www.fedex.com/fedextrack/?trknbr=${n}`,
  dhl: (n) => `https://www.dhl.com/global-en/home/tracking/tracking-express.html?tracking-id=${n}`,
};

export function trackingUrlOf(carrier: string | null | undefined, trackingNumber: string | null | undefined): string | null {
  if (!carrier || !trackingNumber) return null;
  const page = TRACKING_PAGES[carrier];
  return page ? page(encodeURIComponent(trackingNumber)) : null;
}
