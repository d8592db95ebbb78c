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
  'parseMoney', 'formatMoney', 'formatMoneyOrNull', 'parseMoneyOrNull', 'formatUsd', 'displayPrice', // money.ts
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
  {
    // Money is cents end to end; only common/domain/money.ts turns it into or out of a decimal (ADR 016).
    selector:
      "CallExpression[callee.property.name='toFixed'][arguments.0.value=2], CallExpression[callee.name='parseFloat'], CallExpression[callee.object.name='Number'][callee.property.name='parseFloat']",
    message: inCommon('Money as a decimal (formatMoney / parseMoney in common/domain/money.ts, ADR 016)'),
  },
];

// Server modules import no other module (docs/architecture.md, Module map): a file in server/modules/<a>
// imports nothing from server/modules/<b>, types included. What needs several modules is a flow
// (server/flows/) or wiring (server/services.ts, server/app.ts); server/db (schema, migrations, seed),
// scripts and tests may import several too, and are in no zone. A module states what it needs of others as
// a small port interface of its own. Exceptions: a *.tables.ts may name another module's *.tables.ts for a
// foreign key; inventory writes the stock columns it owns on catalog's products row (→ catalog.tables.ts).
// server/lib is below the modules and imports none. server/lint-zones.test.ts shows the rule failing on a breach.
const root = import.meta.dirname;
const modulesDir = path.join(root, 'server/modules');
const serverModules = fs
  .readdirSync(modulesDir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const sharedColumns = { inventory: [`${modulesDir}/catalog/catalog.tables.{ts,js}`] };
const moduleZones = (tablesFiles) =>
  serverModules.map((name) => ({
    target: `${modulesDir}/${name}/**`,
    from: `${modulesDir}/**`,
    except: [`${modulesDir}/${name}/**`, ...(sharedColumns[name] ?? []), ...(tablesFiles ? [`${modulesDir}/*/*.tables.ts`] : [])],
    message: tablesFiles
      ? `A module's tables may name another module's tables (a foreign key), nothing else of it.`
      : `A module imports no other module: declare a port in ${name} and wire it in server/services.ts, or make it a flow (server/flows/).`,
  }));
const libZone = {
  target: path.join(root, 'server/lib'),
  from: modulesDir,
  message: 'server/lib holds helpers below the modules: it imports no module.',
};
// Errors, cookie names and advisory-lock keys live in server/lib so modules and plugins share them; the
// plugins sit above lib (they register routes and hooks), so lib never reaches up into them.
const libBelowPlugins = {
  target: path.join(root, 'server/lib'),
  from: path.join(root, 'server/plugins'),
  message: 'server/lib is below the plugins: it imports none of server/plugins.',
};

const importXSettings = {
  'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
  'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
  'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
};

// Client features never import each other (bulletproof-react's feature zones; DESIGN.md layout):
// client/features/<x> may import only itself and the shared code (client/lib, client/components, common/);
// pages and the app compose features. Shared code imports no feature, page or app file. Tests are exempt:
// like pages, they may compose. client/lint-zones.test.ts shows the rule failing on a breach.
const clientDir = path.join(root, 'client');
const clientFeatures = fs
  .readdirSync(path.join(clientDir, 'features'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const clientZones = [
  ...clientFeatures.map((name) => ({
    target: `${clientDir}/features/${name}`,
    from: `${clientDir}/features`,
    except: [`./${name}`],
    message: `A feature imports no other feature: move what both need to client/lib or client/components, or compose them in client/pages or client/app (${name} may import ./ and the shared code).`,
  })),
  {
    target: `${clientDir}/features`,
    from: [`${clientDir}/pages`, `${clientDir}/app`],
    message: 'A feature imports no page or app file: pages and the app compose features, not the other way round.',
  },
  {
    target: [`${clientDir}/lib`, `${clientDir}/components`],
    from: [`${clientDir}/features`, `${clientDir}/pages`, `${clientDir}/app`],
    message: 'Shared client code (lib, components) imports no feature, page or app file.',
  },
];

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
    files: ['client/**/*.{ts,tsx}'],
    ignores: ['client/**/*.test.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: importXSettings,
    rules: { 'import-x/no-restricted-paths': ['error', { zones: clientZones }] },
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
    files: ['server/modules/**/*.ts', 'server/lib/**/*.ts'],
    ignores: ['server/**/*.test.ts', 'server/modules/**/*.tables.ts'],
    plugins: { 'import-x': importX },
    settings: importXSettings,
    rules: { 'import-x/no-restricted-paths': ['error', { zones: [...moduleZones(false), libZone, libBelowPlugins] }] },
  },
  {
    files: ['server/modules/**/*.tables.ts'],
    plugins: { 'import-x': importX },
    settings: importXSettings,
    rules: { 'import-x/no-restricted-paths': ['error', { zones: moduleZones(true) }] },
  },
);
