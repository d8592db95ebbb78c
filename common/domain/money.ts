// Money is integer cents (minor units) in the code and the database (bigint *_cents columns), and a
// "12.34" decimal string on the wire: converted once, here, at the boundary (docs/decisions/016-money-minor-units.md).

export type Cents = number;

/** "12.34" | "12" | "12.3" → 1234. Throws on anything that is not a plain non-negative amount. */
export function parseMoney(value: string): Cents {
  if (!/^\d{1,8}(\.\d{1,2})?$/.test(value.trim())) throw new Error(`Not a money amount: ${value}`);
  const [whole, frac = ''] = value.trim().split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

/** 1234 → "12.34" */
export function formatMoney(cents: Cents): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** The wire form of an optional amount: null stays null. */
export function formatMoneyOrNull(cents: Cents | null): string | null {
  return cents === null ? null : formatMoney(cents);
}

/** An optional wire amount → cents: null stays null. */
export function parseMoneyOrNull(value: string | null): Cents | null {
  return value === null ? null : parseMoney(value);
}

/** 1234 → "$12.34" */
export function formatUsd(cents: Cents): string {
  const s = formatMoney(cents);
  return s.startsWith('-') ? `-$${s.slice(1)}` : `$${s}`;
}

/** "$12.34" display from a wire string. */
export function displayPrice(value: string): string {
  return formatUsd(parseMoney(value));
}

/** Percentage of an amount, rounded half up to the cent. */
export function percentOf(cents: Cents, percent: number): Cents {
  return Math.round((cents * percent) / 100);
}
