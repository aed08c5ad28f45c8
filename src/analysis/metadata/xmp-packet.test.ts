import { describe, expect, it } from 'vitest';
import { decodeEntities, MAX_HISTORY_EVENTS, readXmpFields } from './xmp-packet.js';

const packet = (xml: string): Uint8Array => new TextEncoder().encode(xml);
const RDF = 'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"';

describe('readXmpFields', () => {
  it('reads CreatorTool as an attribute or an element, under whatever prefix the packet binds', () => {
    const attr = `<rdf:RDF ${RDF}><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:CreatorTool="Adobe Photoshop CS2 Windows"/></rdf:RDF>`;
    expect(readXmpFields(packet(attr)).creatorTool).toBe('Adobe Photoshop CS2 Windows');
    const element = `<rdf:Description xmlns:xap='http://ns.adobe.com/xap/1.0/'><xap:CreatorTool>GIMP &amp; friends</xap:CreatorTool></rdf:Description>`;
    expect(readXmpFields(packet(element)).creatorTool).toBe('GIMP & friends');
    const wrongNs = `<rdf:Description xmlns:xmp="urn:not-xmp" xmp:CreatorTool="nope"/>`;
    expect(readXmpFields(packet(wrongNs)).creatorTool).toBeNull();
  });

  it('lists the softwareAgent of every History event in order, attribute and element forms', () => {
    const xml =
      `<rdf:Description xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/" xmlns:stEvt="http://ns.adobe.com/xap/1.0/sType/ResourceEvent#">` +
      `<xmpMM:History><rdf:Seq>` +
      `<rdf:li stEvt:action="created" stEvt:softwareAgent="Adobe Photoshop CS5 Macintosh"/>` +
      `<rdf:li rdf:parseType="Resource"><stEvt:action>saved</stEvt:action><stEvt:softwareAgent>Adobe Lightroom</stEvt:softwareAgent></rdf:li>` +
      `</rdf:Seq></xmpMM:History><stEvt:softwareAgent>outside History</stEvt:softwareAgent></rdf:Description>`;
    const r = readXmpFields(packet(xml));
    expect(r.historySoftware).toEqual(['Adobe Photoshop CS5 Macintosh', 'Adobe Lightroom']);
    expect(r.warnings).toEqual([]);
  });

  it('reports an empty History as null and an unclosed one with a warning', () => {
    const ns = `xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/" xmlns:stEvt="http://ns.adobe.com/xap/1.0/sType/ResourceEvent#"`;
    expect(
      readXmpFields(
        packet(
          `<rdf:Description ${ns}><xmpMM:History><rdf:Seq/></xmpMM:History></rdf:Description>`,
        ),
      ).historySoftware,
    ).toBeNull();
    const unclosed = readXmpFields(
      packet(`<x ${ns}><xmpMM:History><rdf:li stEvt:softwareAgent="A"/>`),
    );
    expect(unclosed.historySoftware).toEqual(['A']);
    expect(unclosed.warnings[0]).toMatch(/not closed/);
  });

  it('keeps at most MAX_HISTORY_EVENTS events', () => {
    const ns = `xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/" xmlns:stEvt="http://ns.adobe.com/xap/1.0/sType/ResourceEvent#"`;
    const many = `<x ${ns}><xmpMM:History>${'<rdf:li stEvt:softwareAgent="A"/>'.repeat(MAX_HISTORY_EVENTS + 5)}</xmpMM:History></x>`;
    const r = readXmpFields(packet(many));
    expect(r.historySoftware).toHaveLength(MAX_HISTORY_EVENTS);
    expect(r.warnings[0]).toMatch(/more than/);
  });

  it('decodes XML entities and character references, and leaves unknown ones alone', () => {
    expect(decodeEntities('a &lt;b&gt; &#169; &#x1F4F7; &quot;q&quot; &nbsp;')).toBe(
      'a <b> © 📷 "q" &nbsp;',
    );
  });
});
