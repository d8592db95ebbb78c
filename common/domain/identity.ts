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

// Addresses outside the US (docs/decisions/023-international-addresses.md). The US key above stays as it
// was (stored claims are hashes of it); elsewhere the common street words of the country's language fold to
// one spelling, the postcode is compared in its canonical form (no spaces, upper case, the 'SE-'/'L-' prefix
// some write dropped), and a postcode or town typed at the end of the street line is not part of the street.

/** { short: [every spelling] } → spelling → short. */
function spellings(groups: Record<string, string[]>): Record<string, string> {
  return Object.fromEntries(Object.entries(groups).flatMap(([short, all]) => [short, ...all].map((w) => [w, short])));
}

/** Street words by language group: every spelling → one. Applied anywhere in the line (French 'rue' leads). */
const FRENCH_WORDS = spellings({
  av: ['avenue', 'ave'], bd: ['boulevard', 'boul', 'bld', 'blvd'], ch: ['chemin'], imp: ['impasse'],
  pl: ['place'], rte: ['route'], all: ['allee'], fbg: ['faubourg'], qu: ['quai'], sq: ['square'], rue: ['r'],
});
const GERMAN_WORDS = spellings({ str: ['strasse'], pl: ['platz'] });
const SPANISH_WORDS = spellings({
  c: ['calle', 'cl'], av: ['avenida', 'avda'], pl: ['plaza', 'pza'], po: ['paseo'], cra: ['carrera', 'kra'],
});
const ITALIAN_WORDS = spellings({
  v: ['via'], vle: ['viale'], pza: ['piazza'], cso: ['corso'], lgo: ['largo'], vic: ['vicolo'],
});
const DUTCH_WORDS = spellings({ str: ['straat'], ln: ['laan'], pln: ['plein'] });
const PORTUGUESE_WORDS = spellings({ r: ['rua'], av: ['avenida'], tv: ['travessa'], pc: ['praca'] });
/** English outside the US: the USPS table plus the British words it lacks. */
const BRITISH_WORDS = spellings({ cl: ['close'], pde: ['parade'], gdns: ['gardens'] });

/** Words that tell nothing apart: articles and 'number' ('rue de la Paix' is 'rue la Paix'; 'Nº 5' is '5'). */
const FILLERS = new Set(
  [
    ...['de', 'du', 'des', 'la', 'le', 'les', 'l', 'd', 'del', 'el', 'los', 'las', 'di', 'della', 'dello', 'dei'],
    ...['da', 'do', 'dos', 'das', 'n', 'no', 'nr', 'num', 'numero', 'nummer'],
    // Japanese block numbering: '1丁目2番3号', '1-chome 2-3' and '1-2-3' are one doorstep.
    ...['chome', 'banchi', 'ban', 'go'],
  ],
);
/** Unit words of other languages (the number after them is kept, as in the US). */
const UNIT_WORDS = new Set(['flat', 'appartement', 'appt', 'etage', 'wohnung', 'whg', 'piso', 'puerta', 'interno', 'int', 'scala']);

/** Compound endings folded inside a word: 'Torstraße' = 'Torstrasse' = 'Torstr.'; 'Storgatan' = 'Storg.'. */
const GERMANIC_ENDINGS: ReadonlyArray<readonly [RegExp, string]> = [
  [/(strasse|str)$/, 'str'],
  [/(straat)$/, 'str'],
  [/(gatan|gata|gate|gade|g)$/, 'g'],
  [/(vagen|vag|veien|vei|vej)$/, 'v'],
  [/(katu|k)$/, 'k'],
];

type Group = 'en' | 'fr' | 'de' | 'es' | 'it' | 'nl' | 'pt' | 'nordic' | 'ja' | 'other';
const GROUPS: Record<Group, string[]> = {
  en: ['GB', 'IE', 'AU', 'NZ', 'CA', 'SG', 'ZA', 'HK', 'MY', 'PH', 'IN'],
  fr: ['FR', 'BE', 'LU', 'MC'],
  de: ['CH', 'DE', 'AT', 'LI'],
  es: ['ES', 'MX', 'AR', 'CL', 'CO'],
  it: ['IT'],
  nl: ['NL'],
  pt: ['PT', 'BR'],
  nordic: ['SE', 'NO', 'DK', 'FI'],
  ja: ['JP'],
  other: [],
};
const GROUP_OF: Record<string, Group> = Object.fromEntries(
  Object.entries(GROUPS).flatMap(([group, codes]) => codes.map((c) => [c, group as Group])),
);

function wordsOf(group: Group): Record<string, string> {
  switch (group) {
    case 'fr':
      return FRENCH_WORDS;
    case 'de':
      // Switzerland and Belgium write French too.
      return { ...FRENCH_WORDS, ...GERMAN_WORDS };
    case 'es':
      return SPANISH_WORDS;
    case 'it':
      return ITALIAN_WORDS;
    case 'nl':
      return DUTCH_WORDS;
    case 'pt':
      return PORTUGUESE_WORDS;
    default:
      return {};
  }
}

/** Text to tokens: the doorstep's words, with the spellings that are not words (ß, 丁目, dotted abbreviations) first made plain. */
function tokensOf(text: string): string[] {
  const plain = text
    .normalize('NFKC')
    .replace(/ß/g, 'ss')
    .replace(/丁目|番地|番|号|の/g, ' ')
    // Italian and Spanish dotted abbreviations are one word: 'P.za', 'C.so', 'V.le', 'Avda.'.
    .replace(/\b([pcv])\.(za|so|le)\b/gi, '$1$2');
  return foldText(plain)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
}

function countryCode(country: string): string {
  return foldText(country)
    .replace(/[^a-z]/g, '')
    .toUpperCase();
}

/**
 * A postcode outside the US: folded, no spaces or punctuation, and the country's letters written in front
 * dropped when the rest is digits ('SE-114 55', 'L-4750', 'CH-8001').
 */
function foreignPostcode(code: string, country: string): string {
  const folded = foldText(code).replace(/[^\p{L}\p{N}]+/gu, '');
  const cc = country.toLowerCase();
  const prefixed = /^([a-z]{1,2})(\d+)$/.exec(folded);
  if (prefixed && (prefixed[1] === cc || prefixed[1] === cc[0])) return prefixed[2]!;
  return folded;
}

/** Removes the first run of tokens equal to `target` (the postcode typed in the line, spaced or not). */
function withoutPostcode(tokens: string[], target: string): string[] {
  if (!target) return tokens;
  for (let i = 0; i < tokens.length; i++) {
    let joined = '';
    for (let j = i; j < Math.min(tokens.length, i + 3); j++) {
      joined += tokens[j];
      if (joined === target) return [...tokens.slice(0, i), ...tokens.slice(j + 1)];
      if (!target.startsWith(joined)) break;
    }
  }
  return tokens;
}

/** Drops the town when it ends the line ('12 Brick Lane, London'), never the street itself ('12 London'). */
function withoutTrailingTown(tokens: string[], town: string[]): string[] {
  if (town.length === 0 || tokens.length - town.length < 2) return tokens;
  const tail = tokens.slice(tokens.length - town.length);
  return tail.every((t, i) => t === town[i]) ? tokens.slice(0, tokens.length - town.length) : tokens;
}

/** One street line's key outside the US (see above); the US and an unknown country use `streetKey`. */
export function foreignStreetKey(
  line: string,
  opts: { country: string; postalCode?: string; city?: string },
): string {
  const code = countryCode(opts.country);
  const group = GROUP_OF[code] ?? 'other';
  let tokens = tokensOf(line);
  tokens = withoutPostcode(tokens, foreignPostcode(opts.postalCode ?? '', code));
  tokens = withoutTrailingTown(tokens, tokensOf(opts.city ?? ''));
  const words = wordsOf(group);
  const out: string[] = [];
  tokens.forEach((t, i) => {
    if (UNIT_DESIGNATORS.has(t) || UNIT_WORDS.has(t) || FILLERS.has(t)) return;
    let w = t;
    if (group === 'en') w = i > 0 ? (BRITISH_WORDS[t] ?? SUFFIXES.get(t) ?? DIRECTIONS.get(t) ?? t) : t;
    else if (words[t]) w = words[t]!;
    else if (group === 'de' || group === 'nl' || group === 'nordic') {
      // Only a word longer than its ending ('Torstraße', not 'Str' alone, which the table above maps).
      for (const [ending, short] of GERMANIC_ENDINGS) {
        const m = ending.exec(t);
        if (
          m &&
          m.index > 0 &&
          /\p{L}/u.test(t.slice(0, m.index)) &&
          (group !== 'de' || m[1]!.startsWith('str'))
        ) {
          if ((group === 'nl' && m[1] !== 'straat') || (group === 'nordic' && m[1]!.startsWith('str')))
            continue;
          w = t.slice(0, m.index) + short;
          break;
        }
      }
    }
    // 'Tor Straße 1' is 'Torstraße 1': a German or Dutch street word joins the name before it.
    if (
      (group === 'de' || group === 'nl') &&
      w === 'str' &&
      out.length > 0 &&
      /\p{L}$/u.test(out[out.length - 1]!)
    )
      out[out.length - 1] += 'str';
    else out.push(w);
  });
  return skeletonOf(out.join(' '));
}

/** One delivery address's key: street line, postal code and country, each folded by the country's rules. */
export function deliveryAddressKey(address: {
  line: string;
  postalCode: string;
  country: string;
  city?: string;
}): string {
  const code = countryCode(address.country);
  if (code === 'US' || code === '') return deliveryAddressKeyUsRules(address);
  return [
    foreignStreetKey(address.line, { country: code, postalCode: address.postalCode, city: address.city }),
    skeletonOf(foreignPostcode(address.postalCode, code)),
    countryKey(address.country),
  ].join('|');
}

/**
 * The key with the US rules whatever the country: every address's key before ADR 023. Claims written
 * then are hashes of it, so it is still counted (never written) next to the country's own key.
 */
export function deliveryAddressKeyUsRules(address: {
  line: string;
  postalCode: string;
  country: string;
}): string {
  return [streetKey(address.line), postalCodeKey(address.postalCode), countryKey(address.country)].join('|');
}
