// International delivery addresses (docs/decisions/023-international-addresses.md): which fields a country's
// address has, what they are called in English, which are required, what its postcode looks like and how its
// letters are written, all from Google's address metadata (libaddressinput) as a pruned snapshot
// (address-data.generated.ts, scripts/update-address-data.mjs). The wire and database names stay the spec's
// (shippingAddress, shippingCity, shippingState, shippingZip, shippingCountry); only labels and rules vary.
// Pure: the checkout form, the server's validation and the mails share it.
import { formatAddress } from 'localized-address-format';
import { ADDRESS_DATA, type CountryAddressData } from './address-data.generated';

export type AddressFieldKey = 'shippingAddress' | 'shippingCity' | 'shippingState' | 'shippingZip';

export interface AddressFieldSpec {
  key: AddressFieldKey;
  label: string;
  required: boolean;
  autoComplete: string;
  options?: ReadonlyArray<{ value: string; label: string }>;
  example?: string;
}

export interface CountryAddressForm {
  country: string;
  countryName: string;
  fields: AddressFieldSpec[];
}

export interface AddressInput {
  shippingAddress?: string | null;
  shippingCity?: string | null;
  shippingState?: string | null;
  shippingZip?: string | null;
  shippingCountry: string;
}

export type AddressErrors = Partial<Record<AddressFieldKey | 'shippingCountry', string>>;

/** The country the spec's labels and messages belong to; the form falls back to it. */
export const DEFAULT_COUNTRY = 'US';

/** Every country we ship to: the United States first (the spec's default), then A–Z by English name. */
export const SHIPPING_COUNTRIES: ReadonlyArray<{ code: string; name: string }> = [
  { code: DEFAULT_COUNTRY, name: ADDRESS_DATA[DEFAULT_COUNTRY]!.name },
  ...Object.entries(ADDRESS_DATA)
    .filter(([code]) => code !== DEFAULT_COUNTRY)
    .map(([code, d]) => ({ code, name: d.name }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en')),
];

const canonicalCode = (code: string | null | undefined): string => (code ?? '').trim().toUpperCase();

function dataFor(code: string): CountryAddressData | undefined {
  const c = canonicalCode(code);
  return Object.prototype.hasOwnProperty.call(ADDRESS_DATA, c) ? ADDRESS_DATA[c] : undefined;
}

export function isKnownCountry(code: string): boolean {
  return dataFor(code) !== undefined;
}

/** 'FR' → 'France'; an unknown code comes back as given (upper-cased), never throws. */
export function countryName(code: string): string {
  return dataFor(code)?.name ?? canonicalCode(code);
}

// English labels for Google's *_name_type values.
const ZIP_LABELS: Record<string, string> = {
  postal: 'Postal code',
  zip: 'ZIP Code',
  eircode: 'Eircode',
  pin: 'PIN code',
};
/** Where English itself says "postcode" (Royal Mail, Australia Post, NZ Post, South Africa). */
const POSTCODE_COUNTRIES = new Set(['GB', 'AU', 'NZ', 'ZA']);
const STATE_LABELS: Record<string, string> = {
  area: 'Area',
  county: 'County',
  department: 'Department',
  district: 'District',
  do_si: 'Province',
  emirate: 'Emirate',
  island: 'Island',
  oblast: 'Oblast',
  parish: 'Parish',
  prefecture: 'Prefecture',
  province: 'Province',
  region: 'Region',
  state: 'State',
};
const LOCALITY_LABELS: Record<string, string> = {
  city: 'City',
  district: 'District',
  post_town: 'Town/City',
  suburb: 'Suburb',
};

/** How English names a country's people or things, for "does not look like a French postal code". */
const ADJECTIVES: Record<string, string> = {
  US: 'US',
  GB: 'UK',
  AU: 'Australian',
  AT: 'Austrian',
  BE: 'Belgian',
  BR: 'Brazilian',
  CA: 'Canadian',
  CH: 'Swiss',
  CZ: 'Czech',
  DE: 'German',
  DK: 'Danish',
  ES: 'Spanish',
  FI: 'Finnish',
  FR: 'French',
  GR: 'Greek',
  IE: 'Irish',
  IT: 'Italian',
  JP: 'Japanese',
  KR: 'South Korean',
  MX: 'Mexican',
  NL: 'Dutch',
  NO: 'Norwegian',
  NZ: 'New Zealand',
  PL: 'Polish',
  PT: 'Portuguese',
  SE: 'Swedish',
  SG: 'Singapore',
};

function zipLabel(country: string, d: CountryAddressData): string {
  if (POSTCODE_COUNTRIES.has(country)) return 'Postcode';
  return ZIP_LABELS[d.zipName ?? 'postal'] ?? 'Postal code';
}

const US_LABELS = {
  shippingAddress: 'Address',
  shippingCity: 'City',
  shippingState: 'State',
  shippingZip: 'ZIP Code',
};

function labelOf(country: string, d: CountryAddressData, key: AddressFieldKey): string {
  if (country === 'US') return US_LABELS[key];
  switch (key) {
    case 'shippingAddress':
      return 'Address';
    case 'shippingCity':
      return LOCALITY_LABELS[d.locality ?? 'city'] ?? 'City';
    case 'shippingState':
      return STATE_LABELS[d.state ?? 'province'] ?? 'Region';
    case 'shippingZip':
      return zipLabel(country, d);
  }
}

const TOKEN_FIELD: Record<string, AddressFieldKey> = {
  A: 'shippingAddress',
  C: 'shippingCity',
  S: 'shippingState',
  Z: 'shippingZip',
};
const AUTOCOMPLETE: Record<AddressFieldKey, string> = {
  shippingAddress: 'street-address',
  shippingCity: 'address-level2',
  shippingState: 'address-level1',
  shippingZip: 'postal-code',
};

function regionOptions(d: CountryAddressData): Array<{ value: string; label: string }> | undefined {
  return d.regions?.map((r) =>
    typeof r === 'string' ? { value: r, label: r } : { value: r[0], label: r[1] },
  );
}

/** The fields of `country`'s address form in the country's own order; an unknown country gets the US form. */
export function addressFormFor(country: string): CountryAddressForm {
  const code = isKnownCountry(country) ? canonicalCode(country) : DEFAULT_COUNTRY;
  const d = ADDRESS_DATA[code]!;
  const fields: AddressFieldSpec[] = [];
  for (const m of d.fmt.matchAll(/%([A-Z])/g)) {
    const key = TOKEN_FIELD[m[1]!];
    if (!key || fields.some((f) => f.key === key)) continue;
    const spec: AddressFieldSpec = {
      key,
      label: labelOf(code, d, key),
      required: d.require.includes(m[1]!),
      autoComplete: AUTOCOMPLETE[key],
    };
    if (key === 'shippingState') {
      const options = regionOptions(d);
      if (options) spec.options = options;
    }
    if (key === 'shippingZip' && d.zipex?.[0]) spec.example = d.zipex[0];
    fields.push(spec);
  }
  // The street line is always asked for: nobody ships to a town.
  if (!fields.some((f) => f.key === 'shippingAddress'))
    fields.unshift({
      key: 'shippingAddress',
      label: 'Address',
      required: true,
      autoComplete: 'street-address',
    });
  return { country: code, countryName: d.name, fields };
}

/** The spec's US messages, exact (docs/product.md §5). */
const US_REQUIRED: Record<AddressFieldKey, string> = {
  shippingAddress: 'Shipping address is required',
  shippingCity: 'City is required',
  shippingState: 'State is required',
  shippingZip: 'ZIP code is required',
};

export const UNKNOWN_COUNTRY_MESSAGE = 'Please choose a country we ship to';

function requiredMessage(country: string, field: AddressFieldSpec): string {
  if (country === 'US' || field.key === 'shippingAddress') return US_REQUIRED[field.key];
  return `${field.label} is required`;
}

/** "This postcode does not look like a UK postcode"; "… a valid postal code for Thailand" without an adjective. */
export function postcodeMessage(country: string): string {
  const code = canonicalCode(country);
  const label = addressFormFor(code).fields.find((f) => f.key === 'shippingZip')?.label ?? 'Postal code';
  const lower =
    label === 'ZIP Code'
      ? 'ZIP code'
      : label === 'PIN code' || label === 'Eircode'
        ? label
        : label.toLowerCase();
  const adjective = ADJECTIVES[code];
  return adjective
    ? `This ${lower} does not look like a${/^[AEIO]/.test(adjective) ? 'n' : ''} ${adjective} ${lower}`
    : `This ${lower} does not look like a valid ${lower} for ${countryName(code)}`;
}

function stateMessage(country: string, field: AddressFieldSpec): string {
  return `Please choose a ${country === 'US' ? 'state' : field.label.toLowerCase()} from the list`;
}

const trimmed = (v: string | null | undefined): string => (v ?? '').trim();

/** The postcode as typed, compared: upper case, runs of white space as one space, no space by a hyphen. */
function tidyPostcode(zip: string): string {
  return zip
    .normalize('NFKC')
    .trim()
    .toUpperCase()
    .replace(/\s+/g, ' ')
    .replace(/\s*-\s*/g, '-');
}

const zipRegexes = new Map<CountryAddressData, RegExp>();

/** The country's postcode pattern, compiled once per country (the checkout asks on every save). */
function zipRegex(d: CountryAddressData): RegExp | undefined {
  if (!d.zip) return undefined;
  let re = zipRegexes.get(d);
  if (!re) zipRegexes.set(d, (re = new RegExp(`^(?:${d.zip})$`, 'i')));
  return re;
}

/**
 * The postcode in the country's canonical form: the separators of the data's example of the same shape put
 * back ('ec1y8sy' → 'EC1Y 8SY', '1540023' → '154-0023', '221621010' → '22162-1010'), when the result fits
 * the country's pattern; else trimmed and upper-cased. A postcode prefix written in ('SE-114 55', 'L-4750')
 * is dropped: the format adds it.
 */
export function normalisePostcode(country: string, zip: string): string {
  const d = dataFor(country);
  let tidy = tidyPostcode(zip);
  if (!d) return tidy;
  if (d.postprefix && tidy.startsWith(d.postprefix.toUpperCase()))
    tidy = tidy.slice(d.postprefix.length).trim();
  const re = zipRegex(d);
  const bare = tidy.replace(/[\s-]/g, '');
  for (const example of d.zipex ?? []) {
    const exBare = example.replace(/[\s-]/g, '');
    if (exBare.length !== bare.length) continue;
    // Separators counted from the end: a UK inward code is always the last three characters.
    let out = '';
    let b = bare.length - 1;
    for (let i = example.length - 1; i >= 0; i--) {
      const ch = example[i]!;
      if (ch === ' ' || ch === '-') out = ch + out;
      else out = bare[b--] + out;
    }
    if (!re || re.test(out)) return out;
  }
  return tidy;
}

/** Whether `zip` can be `country`'s postcode (always true where the data has no pattern). */
export function postcodeFits(country: string, zip: string): boolean {
  const d = dataFor(country);
  if (!d) return false;
  const re = zipRegex(d);
  if (!re) return true;
  const tidy = normalisePostcode(country, zip);
  return re.test(tidy) || re.test(tidy.replace(/[\s-]/g, ''));
}

/** The sub-region's stored value for what was typed or chosen (value or label, any case); undefined: none. */
export function matchRegion(country: string, state: string): string | undefined {
  const d = dataFor(country);
  const want = trimmed(state).toLowerCase();
  if (!d?.regions || !want) return undefined;
  return regionOptions(d)!.find((o) => o.value.toLowerCase() === want || o.label.toLowerCase() === want)
    ?.value;
}

/**
 * Field → message, empty when the address is valid for its country. US messages are the spec's; elsewhere
 * '<Label> is required' and "This postcode does not look like a UK postcode". An unknown country answers on
 * shippingCountry alone. A field the country's address does not have is not checked (the server drops it).
 */
export function validateAddressFields(a: AddressInput): AddressErrors {
  const code = canonicalCode(a.shippingCountry);
  if (!isKnownCountry(code)) return { shippingCountry: UNKNOWN_COUNTRY_MESSAGE };
  const errors: AddressErrors = {};
  for (const field of addressFormFor(code).fields) {
    const value = trimmed(a[field.key]);
    if (!value) {
      if (field.required) errors[field.key] = requiredMessage(code, field);
      continue;
    }
    if (field.key === 'shippingZip' && !postcodeFits(code, value)) errors.shippingZip = postcodeMessage(code);
    if (field.key === 'shippingState' && field.options && matchRegion(code, value) === undefined)
      errors.shippingState = stateMessage(code, field);
  }
  return errors;
}

/** The first message in the form's order (the server answers 400 with it). */
export function firstAddressError(errors: AddressErrors): string | undefined {
  const order: Array<keyof AddressErrors> = [
    'shippingCountry',
    'shippingAddress',
    'shippingCity',
    'shippingState',
    'shippingZip',
  ];
  for (const key of order) if (errors[key]) return errors[key];
  return undefined;
}

/**
 * The address as the shop stores it: country code upper-cased, postcode in its canonical form, a listed
 * sub-region as its stored value ('california' → 'CA'), fields the country's address has not emptied.
 * Call after validateAddressFields found nothing.
 */
export function normaliseAddress<T extends AddressInput>(a: T): T {
  const code = canonicalCode(a.shippingCountry);
  if (!isKnownCountry(code)) return { ...a, shippingCountry: code };
  const keys = new Set(addressFormFor(code).fields.map((f) => f.key));
  const state = trimmed(a.shippingState);
  return {
    ...a,
    shippingCountry: code,
    shippingAddress: trimmed(a.shippingAddress),
    shippingCity: keys.has('shippingCity') ? trimmed(a.shippingCity) : '',
    shippingState: keys.has('shippingState') ? (matchRegion(code, state) ?? state) : '',
    shippingZip:
      keys.has('shippingZip') && trimmed(a.shippingZip)
        ? normalisePostcode(code, trimmed(a.shippingZip))
        : '',
  };
}

const NON_LATIN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

/**
 * Lines of a postal address in the country's own format (Google's, through `localized-address-format`), the
 * fields the country writes in capitals upper-cased, and the country's English name as the last line.
 * Addresses typed in the country's own script use its local format (Japanese: postcode first).
 */
export function formatPostalAddress(a: {
  name?: string;
  shippingAddress: string;
  shippingCity: string;
  shippingState: string;
  shippingZip: string;
  shippingCountry: string;
}): string[] {
  const code = canonicalCode(a.shippingCountry) || DEFAULT_COUNTRY;
  const d = dataFor(code);
  const upper = d?.upper ?? 'C';
  const up = (letter: string, v: string) => (upper.includes(letter) ? v.toUpperCase() : v);
  const zip = trimmed(a.shippingZip) ? normalisePostcode(code, a.shippingZip) : '';
  const typed = [a.shippingAddress, a.shippingCity, a.shippingState].join(' ');
  const lines = formatAddress(
    {
      postalCountry: code,
      name: a.name ? up('N', trimmed(a.name)) : undefined,
      addressLines: trimmed(a.shippingAddress)
        .split(/\r?\n/)
        .map((l) => up('A', l.trim()))
        .filter(Boolean),
      locality: up('C', trimmed(a.shippingCity)),
      administrativeArea: up('S', trimmed(a.shippingState)),
      postalCode: up('Z', zip),
    },
    NON_LATIN.test(typed) ? 'local' : 'latin',
  );
  return [...lines, countryName(code)];
}

/** Main IANA time zones of the countries we ship to (a shopper's clock is a better hint than their language). */
const ZONE_COUNTRY: Record<string, string> = {
  'Europe/London': 'GB',
  'Europe/Belfast': 'GB',
  'Europe/Dublin': 'IE',
  'Europe/Paris': 'FR',
  'Europe/Berlin': 'DE',
  'Europe/Busingen': 'DE',
  'Europe/Amsterdam': 'NL',
  'Europe/Brussels': 'BE',
  'Europe/Madrid': 'ES',
  'Atlantic/Canary': 'ES',
  'Africa/Ceuta': 'ES',
  'Europe/Rome': 'IT',
  'Europe/Lisbon': 'PT',
  'Atlantic/Madeira': 'PT',
  'Atlantic/Azores': 'PT',
  'Europe/Stockholm': 'SE',
  'Europe/Copenhagen': 'DK',
  'Europe/Oslo': 'NO',
  'Europe/Helsinki': 'FI',
  'Europe/Zurich': 'CH',
  'Europe/Vienna': 'AT',
  'Europe/Warsaw': 'PL',
  'Europe/Prague': 'CZ',
  'Europe/Athens': 'GR',
  'Europe/Budapest': 'HU',
  'Europe/Luxembourg': 'LU',
  'Asia/Tokyo': 'JP',
  'Asia/Seoul': 'KR',
  'Asia/Singapore': 'SG',
  'Asia/Hong_Kong': 'HK',
  'Asia/Taipei': 'TW',
  'Asia/Dubai': 'AE',
  'Asia/Jerusalem': 'IL',
  'Asia/Tel_Aviv': 'IL',
  'Asia/Kuala_Lumpur': 'MY',
  'Asia/Bangkok': 'TH',
  'Asia/Manila': 'PH',
  'Africa/Johannesburg': 'ZA',
  'Pacific/Auckland': 'NZ',
  'America/Mexico_City': 'MX',
  'America/Cancun': 'MX',
  'America/Monterrey': 'MX',
  'America/Tijuana': 'MX',
  'America/Sao_Paulo': 'BR',
  'America/Toronto': 'CA',
  'America/Vancouver': 'CA',
  'America/Montreal': 'CA',
  'America/Edmonton': 'CA',
  'America/Winnipeg': 'CA',
  'America/Halifax': 'CA',
  'America/St_Johns': 'CA',
  'America/Regina': 'CA',
  'America/New_York': 'US',
  'America/Chicago': 'US',
  'America/Denver': 'US',
  'America/Phoenix': 'US',
  'America/Los_Angeles': 'US',
  'America/Anchorage': 'US',
  'Pacific/Honolulu': 'US',
};

function zoneCountry(timeZone: string | undefined): string | undefined {
  if (!timeZone) return undefined;
  if (ZONE_COUNTRY[timeZone]) return ZONE_COUNTRY[timeZone];
  if (timeZone.startsWith('Australia/')) return 'AU';
  return undefined;
}

/**
 * The shopper's likely country from the browser's languages ('fr-FR') and IANA time zone ('Europe/Paris'):
 * the clock's country when it is one we ship to, else the first language's region we ship to, else 'US'.
 * Only a hint for the form's first value; the shopper chooses.
 */
export function guessCountry(languages: readonly string[], timeZone: string | undefined): string {
  const zone = zoneCountry(timeZone);
  if (zone && isKnownCountry(zone)) return zone;
  for (const lang of languages) {
    let region: string | undefined;
    try {
      region = new Intl.Locale(lang).region;
    } catch {
      continue;
    }
    if (region && isKnownCountry(region)) return canonicalCode(region);
  }
  return DEFAULT_COUNTRY;
}

export interface PostalAddressFields {
  name?: string;
  shippingAddress: string;
  shippingCity: string;
  shippingState: string;
  shippingZip: string;
  shippingCountry: string;
}

/**
 * The address's lines in its country's own order, the country's name last (formatPostalAddress above),
 * as the shopper typed them: the postal capitals ("CAMBRIDGE, MA") belong on the parcel label, not on a
 * page or in a mail the buyer reads.
 */
export function postalAddressLines(a: PostalAddressFields): string[] {
  const typed = [a.name, ...a.shippingAddress.split(/\r?\n/), a.shippingCity, a.shippingState]
    .map((v) => (v ?? '').trim())
    .filter((v) => v && v !== v.toUpperCase())
    // Longest first, so a street that contains the city's name gets its own casing back whole.
    .sort((x, y) => y.length - x.length);
  return formatPostalAddress(a).map((line) =>
    typed.reduce((out, v) => out.split(v.toUpperCase()).join(v), line),
  );
}
