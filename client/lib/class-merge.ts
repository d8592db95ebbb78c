// A small stand-in for tailwind-merge (its bundle and its first-call class-map build weighed on every
// page's first load: bench/README.md, "Lighthouse", initial JS): later Tailwind classes win over earlier
// ones that set the same CSS property under the same variants, e.g. `h-11 px-5` + `h-14` → `px-5 h-14`.
// It knows the utilities this app uses; class-merge.test.ts checks it agrees with tailwind-merge on every
// pair of classes written in client/, so a new utility that it gets wrong fails the test rather than the layout.

// Tables as words, which compress better than literals in the bundle.
const DISPLAY = new Set(
  (
    'block inline-block inline flex inline-flex table inline-table table-row table-cell grid inline-grid ' +
    'contents flow-root list-item hidden'
  ).split(' '),
);
/** Single-word utilities, as `group=word word;`. */
const KEYWORDS: Record<string, string> = {};
for (const entry of (
  'position=static fixed absolute relative sticky;visibility=visible invisible collapse;' +
  'text-transform=uppercase lowercase capitalize normal-case;' +
  'text-decoration=underline overline line-through no-underline;font-style=italic not-italic;' +
  'text-overflow=truncate text-ellipsis text-clip;sr=sr-only not-sr-only;' +
  'fvn-spacing=tabular-nums proportional-nums;fvn-figure=lining-nums oldstyle-nums;' +
  'fvn-normal=normal-nums;smoothing=antialiased subpixel-antialiased;grow=grow;shrink=shrink;' +
  'transform=transform transform-none;border-w=border;rounded=rounded;shadow=shadow;ring-w=ring;' +
  'outline-style=outline outline-none outline-hidden;transition=transition;ring-inset=ring-inset;' +
  'isolation=isolate;scroll-behavior=scroll-smooth scroll-auto;container=container;' +
  'overflow-wrap=break-words break-all;word-break=break-keep;break-normal=break-normal;'
).split(';')) {
  const [group, words] = entry.split('=');
  if (words) for (const word of words.split(' ')) KEYWORDS[word] = group;
}
const FONT_SIZES = /^(xs|sm|base|lg|[2-9]?xl|\[\d[^\]]*(px|rem|em)\]|\[length:.*\])(\/.*)?$/;
const FONT_WEIGHTS = /^(thin|extralight|light|normal|medium|semibold|bold|extrabold|black|\d+|\[\d+\])$/;
const TEXT_ALIGN = /^(left|center|right|justify|start|end)$/;
const SHADOW_SIZES = /^(2xs|xs|sm|md|lg|xl|2xl|none|inner|\[.*_.*\])$/;
const ROUNDED_SIZES = /^(none|xs|sm|md|lg|xl|[2-4]xl|full|\[.*\])$/;
const BORDER_STYLES = /^(solid|dashed|dotted|double|hidden|none)$/;
const WIDTH = /^(\d+|\[\d.*(px|rem)\]|px)$/;
const SIDES = /^(x|y|t|r|b|l|s|e)$/;
const ROUNDED_SIDES = /^(t|r|b|l|s|e|tl|tr|br|bl|ss|se|es|ee)$/;

// Longest first, so `min-w` is found before `m`-anything and `gap-x` before `gap`.
const PREFIXES = (
  'scroll-mt scroll-mb scroll-pt scroll-pb scroll-m scroll-p underline-offset pointer-events ' +
  'justify-items justify-self place-items place-content place-self translate-x translate-y line-clamp ' +
  'grid-flow grid-cols grid-rows auto-cols auto-rows col-span col-start col-end row-span row-start row-end ' +
  'overflow-x overflow-y overscroll decoration whitespace appearance tracking leading duration opacity ' +
  'inset-x inset-y space-x space-y divide-x divide-y accent from via to rotate scale-x scale-y scale ' +
  'cursor select origin animate aspect items justify content gap-x gap-y min-w min-h max-w max-h basis ' +
  'order delay ease inset self shrink grow size top right bottom left start end gap fill stroke blur z ' +
  'w h px py pt pr pb pl ps pe p mx my mt mr mb ml ms me m'
).split(' ');

/** Classes a later class of this group also removes (tailwind-merge's "conflicting groups"). */
const OVERRIDES: Record<string, string[]> = {};
for (const entry of (
  'p=px py pt pr pb pl ps pe;px=pr pl ps pe;py=pt pb;m=mx my mt mr mb ml ms me;mx=mr ml ms me;my=mt mb;' +
  'inset=inset-x inset-y top right bottom left start end;inset-x=right left;inset-y=top bottom;' +
  'size=w h;flex=grow shrink basis;gap=gap-x gap-y;overflow=overflow-x overflow-y;' +
  'border-w=border-w-x border-w-y border-w-t border-w-r border-w-b border-w-l border-w-s border-w-e;' +
  'border-w-x=border-w-r border-w-l;border-w-y=border-w-t border-w-b;' +
  'border-color=border-color-x border-color-y border-color-t border-color-r border-color-b border-color-l;' +
  'rounded=rounded-t rounded-r rounded-b rounded-l rounded-s rounded-e rounded-tl rounded-tr rounded-br rounded-bl;' +
  'font-size=leading;line-clamp=display overflow;scroll-m=scroll-mt scroll-mb;' +
  'scroll-p=scroll-pt scroll-pb;'
).split(';')) {
  const [group, removes] = entry.split('=');
  if (removes) OVERRIDES[group] = removes.split(' ');
}

/** The CSS property group a utility (without variants) sets, or null when unknown (never merged). */
function groupOf(utility: string): string | null {
  const u = utility.replace(/^!|!$/g, '').replace(/^-/, '');
  if (DISPLAY.has(u)) return 'display';
  if (KEYWORDS[u]) return KEYWORDS[u];
  const dash = u.indexOf('-');
  if (dash < 0) return null;
  const head = u.slice(0, dash);
  const rest = u.slice(dash + 1);
  switch (head) {
    case 'text':
      if (FONT_SIZES.test(rest)) return 'font-size';
      if (TEXT_ALIGN.test(rest)) return 'text-align';
      if (/^(wrap|nowrap|balance|pretty)$/.test(rest)) return 'text-wrap';
      return 'text-color';
    case 'font':
      return FONT_WEIGHTS.test(rest) ? 'font-weight' : 'font-family';
    case 'bg': {
      // `bg-gradient-to-*` (Tailwind 3's name) is a colour to tailwind-merge 3: kept so, to merge as it did.
      if (/^linear-|^radial-|^conic-|^none$|^\[url/.test(rest)) return 'bg-image';
      if (/^(auto|cover|contain)$/.test(rest)) return 'bg-size';
      if (/^(fixed|local|scroll)$/.test(rest)) return 'bg-attachment';
      if (/^(repeat|no-repeat|repeat-x|repeat-y|repeat-round|repeat-space)$/.test(rest)) return 'bg-repeat';
      if (/^(center|top|bottom|left|right|left-top|left-bottom|right-top|right-bottom)$/.test(rest))
        return 'bg-position';
      if (/^clip-/.test(rest)) return 'bg-clip';
      if (/^origin-/.test(rest)) return 'bg-origin';
      return 'bg-color';
    }
    case 'border': {
      if (WIDTH.test(rest)) return 'border-w';
      if (BORDER_STYLES.test(rest)) return 'border-style';
      if (/^(collapse|separate)$/.test(rest)) return 'border-collapse';
      if (rest.startsWith('spacing')) return 'border-spacing';
      const [side, ...value] = rest.split('-');
      if (SIDES.test(side)) {
        if (value.length === 0 || WIDTH.test(value.join('-'))) return `border-w-${side}`;
        return `border-color-${side}`;
      }
      return 'border-color';
    }
    case 'rounded': {
      if (ROUNDED_SIZES.test(rest)) return 'rounded';
      const side = rest.split('-')[0];
      return ROUNDED_SIDES.test(side) ? `rounded-${side}` : null;
    }
    case 'shadow':
      return SHADOW_SIZES.test(rest) ? 'shadow' : 'shadow-color';
    case 'outline':
      if (/^(dashed|dotted|double|solid|none|hidden)$/.test(rest)) return 'outline-style';
      if (WIDTH.test(rest)) return 'outline-w';
      if (rest.startsWith('offset-')) return 'outline-offset';
      return 'outline-color';
    case 'ring':
      if (WIDTH.test(rest)) return 'ring-w';
      if (rest.startsWith('offset-'))
        return WIDTH.test(rest.slice(7)) ? 'ring-offset-w' : 'ring-offset-color';
      return 'ring-color';
    case 'transition':
      return 'transition';
    case 'flex':
      if (/^(row|row-reverse|col|col-reverse)$/.test(rest)) return 'flex-direction';
      if (/^(wrap|wrap-reverse|nowrap)$/.test(rest)) return 'flex-wrap';
      return /^(\d+|auto|initial|none|\[.*\])$/.test(rest) ? 'flex' : null;
    case 'object':
      return /^(contain|cover|fill|none|scale-down)$/.test(rest) ? 'object-fit' : 'object-position';
    case 'overflow':
      if (rest.startsWith('x-') || rest.startsWith('y-')) return `overflow-${rest[0]}`;
      return 'overflow';
    case 'list':
      return /^(inside|outside)$/.test(rest) ? 'list-position' : 'list-type';
    case 'align':
      return /^(baseline|top|middle|bottom|text-top|text-bottom|sub|super)$/.test(rest) ? 'vertical-align' : null;
    case 'snap':
      if (/^(start|end|center|align-none)$/.test(rest)) return 'snap-align';
      if (/^(normal|always)$/.test(rest)) return 'snap-stop';
      if (/^(mandatory|proximity)$/.test(rest)) return 'snap-strictness';
      return 'snap-type';
    case 'divide':
      if (/^(x|y)(-\d+|-reverse)?$/.test(rest)) return `divide-${rest}`.replace(/-\d+$/, '');
      if (BORDER_STYLES.test(rest)) return 'divide-style';
      return 'divide-color';
  }
  for (const prefix of PREFIXES) if (u.startsWith(`${prefix}-`)) return prefix;
  return null;
}

/** Variants in a canonical order (tailwind-merge sorts them too), and the utility itself. */
function split(cls: string): [string, string] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < cls.length; i++) {
    const c = cls[i];
    if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (c === ':' && depth === 0) {
      parts.push(cls.slice(start, i));
      start = i + 1;
    }
  }
  const important = cls.startsWith('!') || cls.endsWith('!') ? '!' : '';
  return [parts.sort().join(':') + important, cls.slice(start)];
}

const groupCache = new Map<string, [string, string] | null>();

function keyOf(cls: string): [string, string] | null {
  let hit = groupCache.get(cls);
  if (hit === undefined) {
    const [variants, utility] = split(cls);
    const group = groupOf(utility);
    hit = group ? [variants, group] : null;
    groupCache.set(cls, hit);
  }
  return hit;
}

/** Later classes win over earlier ones that set the same property under the same variants. */
export function mergeClasses(classList: string): string {
  const classes = classList.split(/\s+/).filter(Boolean);
  const taken = new Set<string>();
  const out: string[] = [];
  for (let i = classes.length - 1; i >= 0; i--) {
    const cls = classes[i];
    const key = keyOf(cls);
    if (!key) {
      out.push(cls);
      continue;
    }
    const [variants, group] = key;
    if (taken.has(`${variants}|${group}`)) continue;
    taken.add(`${variants}|${group}`);
    for (const g of OVERRIDES[group] ?? []) taken.add(`${variants}|${g}`);
    out.push(cls);
  }
  return out.reverse().join(' ');
}
