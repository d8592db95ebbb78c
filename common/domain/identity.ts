// Identity folding (ADR 013): the spellings one person can type for one mailbox or one delivery address
// fold to one key before anything is hashed or counted, so a per-shopper limit, a welcome code or a
// 'Notify me' signup is one per person, not one per spelling. Pure: the server and the storefront share it.
import streetTypes from 'street-types';
import unhomoglyph from 'unhomoglyph';
import normalizeEmail from 'validator/lib/normalizeEmail.js';

/**
 * Unicode default-ignorable code points (zero-width space and joiners, soft hyphen, bidi marks, variation
 * selectors, tags…) and other format characters: invisible, so never part of what a person meant.
 */
const IGNORABLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu;
const COMBINING_MARK = /\p{M}/gu;

/**
 * The text half of a UTS #39 skeleton: compatibility forms folded (NFKC: full-width '１' → '1'), invisible
 * characters dropped, lower-cased, accents dropped, and every non-ASCII character that looks like a Latin
 * one replaced by it (Unicode's confusables.txt through `unhomoglyph`: Cyrillic 'і' → 'i'). ASCII is left
 * as typed here, so the rules below still read 'st' and '62701'; `skeletonOf` then maps the ASCII
 * look-alikes too.
 */
export function foldText(value: string): string {
  const compat = value.normalize('NFKC').replace(IGNORABLE, '').toLowerCase();
  const latin = compat.replace(/[^\p{ASCII}]+/gu, (run) => unhomoglyph(run));
  return latin.normalize('NFD').replace(COMBINING_MARK, '').replace(IGNORABLE, '').normalize('NFKC').toLowerCase();
}

/**
 * The UTS #39 skeleton of already folded text: confusable ASCII too ('1' and 'l', '0' and 'o', 'rn' and
 * 'm' become one), lower-cased. Two strings with one skeleton look alike, so they count as one.
 */
export function skeletonOf(folded: string): string {
  return unhomoglyph(folded).toLowerCase();
}

/**
 * One mailbox's key: folded text, then the mailbox rules. The sub-address (`+tag`) is dropped for every
 * domain (nearly every provider delivers `name+tag@` to `name@`), and the providers' own rules apply
 * (validator's normalizeEmail: Gmail ignores dots and googlemail.com is gmail.com, Yahoo's `-tag`,
 * iCloud and Outlook aliases), then the skeleton. Not an address to send to: mail goes to what was typed.
 */
export function mailboxKey(email: string): string {
  const folded = foldText(email).replace(/\s+/g, '');
  const at = folded.lastIndexOf('@');
  if (at <= 0 || at === folded.length - 1) return skeletonOf(folded);
  const local = folded.slice(0, at).replace(/\+.*$/, '');
  const domain = folded.slice(at + 1).replace(/\.+$/, '');
  const normal = normalizeEmail(`${local || folded.slice(0, at)}@${domain}`, {
    all_lowercase: true,
    gmail_remove_dots: true,
    gmail_remove_subaddress: true,
    gmail_convert_googlemaildotcom: true,
    outlookdotcom_remove_subaddress: true,
    yahoo_remove_subaddress: true,
    icloud_remove_subaddress: true,
  });
  return skeletonOf(typeof normal === 'string' ? normal : `${local}@${domain}`);
}

/** Every USPS street suffix spelling (Publication 28, appendix C1, from `street-types`) → its standard abbreviation. */
const SUFFIXES: ReadonlyMap<string, string> = new Map(
  (streetTypes as ReadonlyArray<{ suffix: string; abbrs: string[]; standardAbbr: string }>).flatMap((t) =>
    [t.suffix, ...t.abbrs].map((spelling) => [spelling.trim().toLowerCase(), t.standardAbbr.toLowerCase()] as const),
  ),
);

/** USPS Publication 28, appendix C2: secondary unit designators. The unit's number is what tells units apart. */
const UNIT_DESIGNATORS = new Set([
  'apartment', 'apt', 'basement', 'bsmt', 'building', 'bldg', 'department', 'dept', 'floor', 'fl', 'front', 'frnt',
  'hangar', 'hngr', 'key', 'lobby', 'lbby', 'lot', 'lower', 'lowr', 'office', 'ofc', 'penthouse', 'ph', 'pier',
  'rear', 'room', 'rm', 'side', 'slip', 'space', 'spc', 'stop', 'suite', 'ste', 'trailer', 'trlr', 'unit', 'upper',
  'uppr', 'no', 'num', 'number',
]);

const DIRECTIONS: ReadonlyMap<string, string> = new Map([
  ['north', 'n'], ['south', 's'], ['east', 'e'], ['west', 'w'],
  ['northeast', 'ne'], ['northwest', 'nw'], ['southeast', 'se'], ['southwest', 'sw'],
]);

/**
 * One street line's key: folded text, punctuation and hyphens as spaces ('Main-Street'), suffixes to
 * their USPS abbreviation ('Street', 'Str', 'St.' → 'st'), directions abbreviated, unit designators
 * dropped ('Apt 4', '#4', 'Unit 4', 'Suite 4' → '4'), then the skeleton.
 */
export function streetKey(line: string): string {
  const tokens = foldText(line)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  const out = tokens
    .filter((t) => !UNIT_DESIGNATORS.has(t))
    // A suffix word is a suffix after the street's name, not as the first word ('Avenue Road', 'St Marks').
    .map((t, i) => (i > 0 ? (SUFFIXES.get(t) ?? DIRECTIONS.get(t) ?? t) : (DIRECTIONS.get(t) ?? t)));
  return skeletonOf(out.join(' '));
}

/** A postal code's key: a US ZIP+4 is its ZIP (62701-0001 → 62701); others folded, spaces and punctuation dropped. */
export function postalCodeKey(code: string): string {
  const folded = foldText(code).replace(/[^\p{L}\p{N}]+/gu, '');
  const zip = /^(\d{5})(\d{4})?$/.exec(folded);
  return skeletonOf(zip ? zip[1]! : folded);
}

/** A country's key: folded, letters only ('U.S.' and 'us' alike). Names and codes are not mapped to each other. */
export function countryKey(country: string): string {
  return skeletonOf(foldText(country).replace(/[^\p{L}\p{N}]+/gu, ''));
}

/** One delivery address's key: street line, postal code and country, each folded. */
export function deliveryAddressKey(address: { line: string; postalCode: string; country: string }): string {
  return [streetKey(address.line), postalCodeKey(address.postalCode), countryKey(address.country)].join('|');
}
