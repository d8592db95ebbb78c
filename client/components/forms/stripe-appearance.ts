import type { Appearance } from '@stripe/stripe-js';

// Stripe's Payment Element draws its fields inside its own iframe, so the shop's CSS cannot reach them:
// the same design tokens (client/styles.css, docs/design-system.md) are handed over here, once, for the
// checkout and the draw alike. Stripe reads literal values, not CSS variables.
const TOKENS = {
  ink: '#0a0a0a',
  surface: '#ffffff',
  muted: '#5c5c57',
  hairlineStrong: '#8f8d86',
  danger: '#b42318',
  focus: '#155dfc', // Tailwind 4's blue-600, the focus ring of every field
  font: "'Inter Variable', Inter, ui-sans-serif, system-ui, sans-serif",
} as const;

/** The Payment Element dressed as the shop's own fields: square, hairline border, ink on white, blue focus ring. */
export const stripeAppearance: Appearance = {
  theme: 'flat',
  variables: {
    colorPrimary: TOKENS.ink,
    colorBackground: TOKENS.surface,
    colorText: TOKENS.ink,
    colorTextSecondary: TOKENS.muted,
    colorDanger: TOKENS.danger,
    borderRadius: '0px',
    fontFamily: TOKENS.font,
  },
  rules: {
    '.Input': { border: `1px solid ${TOKENS.hairlineStrong}`, boxShadow: 'none' },
    '.Input:hover': { borderColor: TOKENS.ink },
    '.Input:focus': { borderColor: TOKENS.ink, boxShadow: `0 0 0 3px ${TOKENS.focus}` },
    '.Input--invalid': { borderColor: TOKENS.danger },
  },
};
