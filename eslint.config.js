import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import fs from 'node:fs';
import path from 'node:path';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

const boundary = (group, message) => ({ group, message });

// Business rules live once, in common/domain (house rule 3): a second copy in client/ or server/ drifts.
// These names and shapes are the rules that were once copied; import them from common/domain instead.
const SHARED_RULE_NAMES = [
  'isAvailable', 'isPurchasable', 'isSoldOut', // stock.ts
  'unitPriceCents', 'pricedLine', 'lineTotalCents', 'subtotalCents', 'cartTotalCents', 'itemCount',
  'cartItemCount', 'computeTotals', 'totalsToWire', // pricing.ts
  'availableShippingMethods', 'methodsForCountry', 'isDomestic', 'resolveShippingMethod',
  'shippingCostCents', 'formatThreshold', 'formatThresholdUsd', // shipping.ts
  'parseMoney', 'formatMoney', 'formatUsd', 'displayPrice', // money.ts
  'formatEditionNumbers', 'editionNumbersFor', 'checkCartQuantity', // stock.ts
  'firstSentence', // first-sentence.ts
  'isUuid', // ids.ts
  'matchRoute', // site-routes.ts
];
const sharedRuleName = `/^(${SHARED_RULE_NAMES.join('|')})$/`;
const inCommon = (what) => `${what} is a shared rule: import it from common/domain instead of writing a second copy.`;
const oneCopyOfEachRule = [
  { selector: `FunctionDeclaration[id.name=${sharedRuleName}]`, message: inCommon('This function') },
  {
    selector: `VariableDeclarator[id.name=${sharedRuleName}][init.type=/^(ArrowFunctionExpression|FunctionExpression)$/]`,
    message: inCommon('This function'),
  },
  {
    selector: 'Literal[regex.pattern=/\\[0-9a-f\\]\\{8\\}/i], Literal[value=/\\[0-9a-f\\]\\{8\\}/i]',
    message: inCommon('The UUID pattern (isUuid / UUID_PATTERN in common/domain/ids.ts)'),
  },
  {
    selector:
      "LogicalExpression[operator='&&'][right.left.property.name='stock']:has(MemberExpression[property.name='inStock']), LogicalExpression[operator='||'][right.left.property.name='stock']:has(UnaryExpression > MemberExpression[property.name='inStock'])",
    message: inCommon('Availability (isAvailable in common/domain/stock.ts)'),
  },
  {
    selector: "TemplateLiteral[quasis.0.value.raw=/^Nos?\\. $/], Literal[value=/^Nos?\\. $/]",
    message: inCommon('The edition label (formatEditionNumbers in common/domain/stock.ts)'),
  },
  {
    selector: "BinaryExpression[operator=/^[!=]==?$/][right.value='US']",
    message: inCommon('Which shipping methods a country may use (availableShippingMethods in common/domain/shipping.ts)'),
  },
  {
    selector: "Property[key.name='path'][value.type='Literal'][value.value=/^\\/[a-z-]+(\\/:[a-z]+)?$/]",
    message: inCommon('A page route (PAGE_PATHS in common/domain/site-routes.ts)'),
  },
];

// Server modules meet only through services (house rule 1): a module may import another module's
// *.service.ts (and the types it exports), never its *.repository.ts or *.tables.ts. Exceptions: server/db
// (schema aggregation, migrations, seed) and tests, which are not in these zones; *.tables.ts files may
// reference another module's tables for a foreign key; inventory writes the stock columns it owns on
// catalog's products row (inventory.repository → catalog.tables).
const root = import.meta.dirname;
const modulesDir = path.join(root, 'server/modules');
const serverModules = fs
  .readdirSync(modulesDir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const ownedDataAccess = ['*.repository.ts', '*.tables.ts'].map((f) => `${modulesDir}/*/${f}`);
const sharedColumns = { inventory: [`${modulesDir}/catalog/catalog.tables.*`] };
const moduleZones = serverModules.map((name) => ({
  target: `${modulesDir}/${name}/**`,
  from: ownedDataAccess,
  except: [`${modulesDir}/${name}/*`, ...(sharedColumns[name] ?? [])],
  message: `Another module's repository or tables: call its service instead (${name} may import ../<module>/<module>.service).`,
}));

const importXSettings = {
  'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
  'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
  'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
};

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'server/db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': [
        'error',
        { patterns: [boundary(['**/server/**', '**/server', '!react-dom/server'], 'client/ never imports server/: go through the API and common/contracts.')] },
      ],
    },
  },
  {
    files: ['common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            boundary(['**/server/**', '**/client/**'], 'common/ is pure: it imports neither client/ nor server/.'),
            boundary(['node:*', 'drizzle-orm*', 'fastify*', 'react*'], 'common/ has no node:*, Drizzle, Fastify or React.'),
          ],
        },
      ],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}', 'server/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...oneCopyOfEachRule] },
  },
  {
    files: ['server/**/*.ts', 'common/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: importXSettings,
    rules: {
      // Type-only imports are not cycles (they vanish at runtime); value imports may never go round.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['server/modules/**/*.ts'],
    ignores: ['server/modules/**/*.test.ts', 'server/modules/**/*.tables.ts'],
    plugins: { 'import-x': importX },
    settings: importXSettings,
    rules: { 'import-x/no-restricted-paths': ['error', { zones: moduleZones }] },
  },
);
