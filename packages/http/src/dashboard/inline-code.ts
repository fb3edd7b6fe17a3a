/** An opening tag: its name and its attributes, quoted values kept whole (a `>` inside one does not end it). */
const TAG = /<([a-zA-Z][\w-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
const QUOTED = /"[^"]*"|'[^']*'/g;
const URL_ATTRIBUTE = /\s(?:href|src|action|formaction|data)\s*=\s*(?:"\s*javascript:|'\s*javascript:|javascript:)/i;

/**
 * What the dashboard's Content-Security-Policy (`web.ts`: styles and scripts from its own files only) refuses, so a
 * page holding it would lose that part: a `style` attribute, a `<style>` element, a `<script>` without `src`, an
 * event-handler attribute (`onclick=`) and a `javascript:` URL. One line per finding in `html`, none for a page
 * that keeps to its policy. Escaped text (`&lt;p style=...&gt;`) and attribute values are not markup.
 */
export function inlineCode(html: string): string[] {
  const found: string[] = [];
  for (const [tag, rawName, rawAttributes] of html.matchAll(TAG)) {
    const name = rawName!.toLowerCase();
    const names = rawAttributes!.replace(QUOTED, '""');
    if (/\sstyle\s*=/i.test(names)) found.push(`a style attribute: ${tag}`);
    if (/\son[a-z]+\s*=/i.test(names)) found.push(`an event-handler attribute: ${tag}`);
    if (URL_ATTRIBUTE.test(rawAttributes!)) found.push(`a javascript: URL: ${tag}`);
    if (name === 'style') found.push(`a style element: ${tag}`);
    if (name === 'script' && !/\ssrc\s*=/i.test(names)) found.push(`an inline script: ${tag}`);
  }
  return found;
}
