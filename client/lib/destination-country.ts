import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { guessCountry } from '../../common/domain/address-format';

/**
 * The shopper's likely country when nothing is saved: the browser's languages and time zone, only ever
 * a country we ship to (US when unsure). Only in the browser: a server render has no shopper to ask.
 */
export function browserCountry(): string {
  if (typeof navigator === 'undefined') return 'US';
  const languages = navigator.languages?.length ? navigator.languages : [navigator.language];
  let timeZone: string | undefined;
  try {
    timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    timeZone = undefined;
  }
  return guessCountry(languages, timeZone);
}

/**
 * Where the shopper's parcel most likely goes, for lines that promise something about shipping: the
 * country of the address saved at checkout when this visit has read it, else the browser's guess. Null
 * on the server render and the first paint (so both agree), then the answer.
 */
export function useDestinationCountry(): string | null {
  const queryClient = useQueryClient();
  const [country, setCountry] = useState<string | null>(null);
  const saved = queryClient.getQueryData<{ shippingCountry?: string } | null>(['/api/customer-info']);
  useEffect(() => {
    setCountry(saved?.shippingCountry ?? browserCountry());
  }, [saved?.shippingCountry]);
  return country;
}
