import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { inlineCode } from './inline-code.js';
import { page } from './layout.js';
import { html } from './html.js';

/** The http package's sources: the dashboard's frame and the pages and sections each capability's folder holds. */
const DIR = fileURLToPath(new URL('../', import.meta.url));

/** Block comments and whole-line comments: they describe markup, they do not emit it. */
const withoutComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** Every source file that may hold the dashboard's templates (tests aside), without its comments. */
function templates(): [string, string][] {
  const files = (dir: string, at: string): [string, string][] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e): [string, string][] =>
      e.isDirectory()
        ? files(`${dir}${e.name}/`, `${at}${e.name}/`)
        : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')
          ? [[`${at}${e.name}`, withoutComments(readFileSync(`${dir}${e.name}`, 'utf8'))]]
          : [],
    );
  return files(DIR, '');
}

describe("the dashboard's markup keeps to its Content-Security-Policy", () => {
  it('finds what the policy refuses, and not escaped text or attribute values that merely mention it', () => {
    expect(inlineCode('<p style="color:red">x</p>')).toEqual(['a style attribute: <p style="color:red">']);
    expect(inlineCode('<style>p{}</style>')).toEqual(['a style element: <style>']);
    expect(inlineCode('<script>alert(1)</script>')).toEqual(['an inline script: <script>']);
    expect(inlineCode('<img src=x onerror=alert(1)>')).toEqual([
      'an event-handler attribute: <img src=x onerror=alert(1)>',
    ]);
    expect(inlineCode('<a href="javascript:void(0)">x</a>')).toHaveLength(1);
    expect(inlineCode('<script src="/dashboard/assets/app.js" defer></script>')).toEqual([]);
    expect(inlineCode('<p>&lt;p style="x"&gt;</p><input value=" style=x onclick=y" title="a > b">')).toEqual([]);
  });

  it('no template source writes a style attribute, a style element, an inline script or a handler', () => {
    const sources = templates();
    expect(sources.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'dashboard/layout.ts',
        'webhooks/webhook-pages.ts',
        'evidence/evidence-record-section.ts',
      ]),
    );
    for (const [name, source] of sources) expect(inlineCode(source), name).toEqual([]);
  });

  it('the page frame, signed out and with a notice, holds none of them', () => {
    const frame = page({ title: 'T', session: null, body: html`<p>x</p>`, notice: { text: 'n', error: true } });
    expect(frame.value).toContain('<script src="/dashboard/assets/app.js" defer></script>');
    expect(inlineCode(frame.value)).toEqual([]);
  });
});
