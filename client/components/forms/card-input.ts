/** "4242424242424242" → "4242 4242 4242 4242" while typing; at most 19 digits. */
export function formatCardNumber(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, 19);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** "1230" or "12/30" → "12/30"; a lone month digit above 1 gets its leading zero ("4" → "04/"). */
export function formatExpiry(input: string, previous = ''): string {
  let digits = input.replace(/\D/g, '').slice(0, 4);
  if (digits.length === 1 && Number(digits) > 1) digits = `0${digits}`;
  // Deleting the slash deletes the month's last digit instead of re-adding the slash.
  if (previous.endsWith('/') && input.length < previous.length) return digits.slice(0, 1);
  if (digits.length < 2) return digits;
  if (digits.length === 2) return input.length > previous.length ? `${digits}/` : digits;
  return `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

/** The digits the gateway expects. */
export function cardDigits(value: string): string {
  return value.replace(/\D/g, '');
}
