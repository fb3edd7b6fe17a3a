/** What a scan of XML hears: element names without their namespace prefix, text still entity-encoded. */
export interface XmlHandler {
  /** An element opens: its attributes are `xml` from `from` to `to` (read with `attr`). */
  open(name: string, xml: string, from: number, to: number, selfClosing: boolean): void;
  close(name: string): void;
  /** Whether the next text is wanted (text not wanted is never cut out of the XML). */
  readonly wantsText: boolean;
  /** Text between tags, entity-encoded unless `cdata`. */
  text(text: string, cdata: boolean): void;
}

export class XmlFault extends Error {}

/** The name at `from` to `to` without its namespace prefix (`x:row` is `row`). */
function localName(s: string, from: number, to: number): string {
  let start = from;
  for (let i = from; i < to; i++) if (s.charCodeAt(i) === 0x3a) start = i + 1;
  return s.slice(start, to);
}

/**
 * A small streaming XML tokenizer for the parts of a workbook: no DTD, no namespaces beyond dropping a prefix, no
 * well-formedness checks beyond what reading needs. Fed text a chunk at a time; a tag, comment or run of text cut
 * by a chunk's end waits for the next chunk.
 */
export class XmlScanner {
  private rest = '';

  constructor(private readonly h: XmlHandler) {}

  feed(chunk: string): void {
    const s = this.rest.length ? this.rest + chunk : chunk;
    this.rest = s.slice(this.scan(s));
  }

  end(): void {
    if (this.rest.trim()) throw new XmlFault('unexpected end of the XML');
    this.rest = '';
  }

  /** Scans `s`; returns where the part that is not complete yet starts. */
  private scan(s: string): number {
    const h = this.h;
    let i = 0;
    const n = s.length;
    while (i < n) {
      const lt = s.indexOf('<', i);
      if (lt === -1) return i;
      if (lt > i && h.wantsText) h.text(s.slice(i, lt), false);
      const next = s.charCodeAt(lt + 1);
      if (Number.isNaN(next)) return lt;
      if (next === 0x21 /* ! */ || next === 0x3f /* ? */) {
        const end = this.special(s, lt);
        if (end === -1) return lt;
        i = end;
        continue;
      }
      // The tag's end: the first `>` outside quoted attribute values.
      let j = lt + 1;
      let quote = 0;
      for (; j < n; j++) {
        const c = s.charCodeAt(j);
        if (quote) {
          if (c === quote) quote = 0;
        } else if (c === 0x3e) break;
        else if (c === 0x22 || c === 0x27) quote = c;
      }
      if (j >= n) return lt;
      if (next === 0x2f /* / */) {
        let e = j;
        while (e > lt + 2 && s.charCodeAt(e - 1) <= 0x20) e--;
        h.close(localName(s, lt + 2, e));
      } else {
        let e = lt + 1;
        while (e < j) {
          const c = s.charCodeAt(e);
          if (c <= 0x20 || c === 0x2f || c === 0x3e) break;
          e++;
        }
        const selfClosing = s.charCodeAt(j - 1) === 0x2f;
        const name = localName(s, lt + 1, e);
        h.open(name, s, e, selfClosing ? j - 1 : j, selfClosing);
        if (selfClosing) h.close(name);
      }
      i = j + 1;
    }
    return i;
  }

  /** A comment, CDATA section, processing instruction or declaration at `lt`: where it ends (-1: not yet). */
  private special(s: string, lt: number): number {
    if (s.startsWith('<!--', lt)) {
      const e = s.indexOf('-->', lt + 4);
      return e === -1 ? -1 : e + 3;
    }
    if (s.startsWith('<![CDATA[', lt)) {
      const e = s.indexOf(']]>', lt + 9);
      if (e === -1) return -1;
      if (this.h.wantsText) this.h.text(s.slice(lt + 9, e), true);
      return e + 3;
    }
    if (s.length - lt < 9 && '<![CDATA['.startsWith(s.slice(lt))) return -1;
    if (s.startsWith('<!DOCTYPE', lt) || s.startsWith('<!ENTITY', lt))
      throw new XmlFault('it has a DTD, which a workbook does not');
    const e = s.indexOf('>', lt);
    return e === -1 ? -1 : e + 1;
  }
}

/** The value of attribute `name` among a tag's attributes (`xml` from `from` to `to`), entity-decoded. */
export function attr(xml: string, from: number, to: number, name: string): string | undefined {
  let i = from;
  while (i < to) {
    while (i < to && xml.charCodeAt(i) <= 0x20) i++;
    const eq = xml.indexOf('=', i);
    if (eq === -1 || eq >= to) return undefined;
    let k = eq + 1;
    while (xml.charCodeAt(k) <= 0x20) k++;
    const q = xml.charCodeAt(k);
    if (q !== 0x22 && q !== 0x27) return undefined;
    const end = xml.indexOf(q === 0x22 ? '"' : "'", k + 1);
    if (end === -1 || end >= to) return undefined;
    let e = eq;
    while (e > i && xml.charCodeAt(e - 1) <= 0x20) e--;
    if (e - i === name.length && xml.startsWith(name, i)) return xmlText(xml.slice(k + 1, end));
    // The relationship's prefixed `r:id` answers to `id`.
    if (
      name === 'id' &&
      e - i > name.length &&
      xml.charCodeAt(e - name.length - 1) === 0x3a &&
      xml.startsWith(name, e - name.length)
    )
      return xmlText(xml.slice(k + 1, end));
    i = end + 1;
  }
  return undefined;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const ENTITY = /&(?:#x([0-9a-fA-F]+)|#([0-9]+)|(amp|lt|gt|quot|apos));/g;

/** XML text with its entity and character references replaced. */
export function xmlText(s: string): string {
  if (s.indexOf('&') === -1) return s;
  return s.replace(ENTITY, (_m, hex: string | undefined, dec: string | undefined, named: string | undefined) => {
    if (named) return NAMED[named]!;
    const code = hex ? Number.parseInt(hex, 16) : Number(dec);
    return code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

/** Office's own escape of characters XML cannot hold in text (`_x000D_`, a carriage return; `_x005F_` an `_`). */
export function officeText(s: string): string {
  if (s.indexOf('_x') === -1) return s;
  return s.replace(/_x([0-9A-Fa-f]{4})_/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
