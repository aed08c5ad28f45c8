import { describe, expect, it } from 'vitest';
import { findAll, parseXml, textContent } from './xml.fixture.js';

// The chart tests lean on parseXml to say "well formed"; make sure it actually refuses bad XML.
describe('parseXml', () => {
  it('reads elements, attributes, entities and text', () => {
    const root = parseXml(
      '<?xml version="1.0" encoding="UTF-8"?>\n<svg a="1" b=\'x &amp; &#x627;\'><text>&lt;b&gt; فرع</text><g/></svg>',
    );
    expect(root.name).toBe('svg');
    expect(root.attributes).toEqual({ a: '1', b: 'x & ا' });
    expect(textContent(root)).toBe('<b> فرع');
    expect(findAll(root, (e) => e.name === 'g')).toHaveLength(1);
  });

  it.each([
    ['unclosed element', '<svg><g></svg>'],
    ['mismatched end tag', '<svg><g></text></svg>'],
    ['two roots', '<svg></svg><svg></svg>'],
    ['unquoted attribute', '<svg a=1></svg>'],
    ['duplicate attribute', '<svg a="1" a="2"></svg>'],
    ['bare ampersand', '<svg>a & b</svg>'],
    ['unknown entity', '<svg>&nbsp;</svg>'],
    ['text before the root', 'x<svg></svg>'],
    ['comment', '<svg><!-- c --></svg>'],
  ])('refuses %s', (_, xml) => {
    expect(() => parseXml(xml)).toThrow();
  });
});
