// The buyer's status timeline (docs/product.md "Order page"): the spec's six order statuses as steps.
// The owner may set any status at any time (§4), so the timeline is drawn from the current status alone:
// every step before it is done. A cancelled order shows the steps it reached no further than "Placed".

export type TimelineState = 'done' | 'current' | 'upcoming';

const STEPS = [
  { status: 'pending', label: 'Order placed', note: 'We have your order and your payment.' },
  { status: 'confirmed', label: 'Confirmed', note: 'Your pieces are reserved with their edition numbers.' },
  { status: 'processing', label: 'Being made', note: 'Your pieces are being made to order.' },
  { status: 'shipped', label: 'Shipped', note: 'On its way to you.' },
  { status: 'delivered', label: 'Delivered', note: 'Enjoy your pieces.' },
] as const;

export interface TimelineStep {
  status: string;
  label: string;
  note: string;
  state: TimelineState;
}

export function orderTimeline(status: string): TimelineStep[] {
  if (status === 'cancelled') {
    return [
      { ...STEPS[0], state: 'done' },
      { status: 'cancelled', label: 'Cancelled', note: 'This order was cancelled.', state: 'current' },
    ];
  }
  const at = Math.max(0, STEPS.findIndex((s) => s.status === status));
  return STEPS.map((s, i) => ({ ...s, state: i < at ? 'done' : i === at ? 'current' : 'upcoming' }));
}

/** The status as the buyer reads it ('Being made' for processing). */
export function orderStatusLabel(status: string): string {
  if (status === 'cancelled') return 'Cancelled';
  return STEPS.find((s) => s.status === status)?.label ?? status;
}
