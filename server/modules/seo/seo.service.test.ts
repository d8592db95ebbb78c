import { describe, expect, test } from 'vitest';
import { escapeHtml, escapeXml } from '../../lib/html';
import { jsonForScript } from './seo.service';

describe('seo helpers', () => {
  test('escapeHtml escapes the five characters that matter in text and attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
    expect(escapeXml(`'&'`)).toBe('&apos;&amp;&apos;');
  });

  test('jsonForScript cannot close its script element and round-trips', () => {
    const data = { name: '</script><script>alert(1)</script>', note: '<!-- x', sep: '\u2028\u2029' };
    const json = jsonForScript(data);
    expect(json).not.toMatch(/</);
    expect(json).not.toMatch(/[\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(data);
  });
});
