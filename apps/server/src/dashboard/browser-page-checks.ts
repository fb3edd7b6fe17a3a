import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import axe from 'axe-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * What every checked page of the browser suites must pass, and the browser contexts that watch for it: axe-core's
 * WCAG 2.2 A/AA rules, no Content-Security-Policy breach, nothing wider than the screen at either width, no internal
 * learner id in a table; and the screenshots (docs/architecture.md, "Web dashboard").
 */

/** The cookies of a context that signed in, to start another context signed in with the same session. */
export type SignedInState = Awaited<ReturnType<BrowserContext['storageState']>>;

const OUT = fileURLToPath(new URL('../../test-output/dashboard/', import.meta.url));

/** The WCAG 2.2 A and AA rules of axe-core: every page must pass all of them, whatever their impact. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * axe-core in the page (through the DevTools protocol, so the page's CSP stays as served): every WCAG 2.2 A/AA rule.
 * axe is put into a document once (half a megabyte of script each time otherwise) and run as often as asked: a
 * page checked at two widths is one document, a page navigated to is a new one.
 */
export async function axeViolations(page: Page): Promise<axe.Result[]> {
  // Expressions as strings: they run in the page, whose DOM types this Node program does not declare.
  if (!(await page.evaluate("typeof axe === 'object' && typeof axe.run === 'function'")))
    await page.evaluate(axe.source);
  const options = JSON.stringify({ runOnly: { type: 'tag', values: WCAG_TAGS }, resultTypes: ['violations'] });
  return ((await page.evaluate(`axe.run(document, ${options})`)) as axe.AxeResults).violations;
}

async function wcagViolations(page: Page): Promise<string[]> {
  return (await axeViolations(page)).map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * Whether the browser tests write a full-page screenshot of every checked page at each width:
 * `FUNDI_TEST_SCREENSHOTS=1` (docs/architecture.md, "Web dashboard"). The suite of every dashboard page writes its
 * own whatever this says, so each run leaves one screenshot of every page at both widths.
 */
export const writeScreenshots = process.env.FUNDI_TEST_SCREENSHOTS === '1';

/** A full-page screenshot of the page as `<dir><name>.png`, when `writeScreenshots` or `always` says so. */
export async function screenshot(page: Page, dir: string, name: string, always = false): Promise<void> {
  if (!writeScreenshots && !always) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${dir}${name}.png`, fullPage: true });
}

/** The widths every checked page is looked at: a desktop and a small phone. */
export const WIDTHS = [1280, 375] as const;

/** What the pages of each context broke of their Content-Security-Policy, as the browser reported it. */
const cspReports = new WeakMap<BrowserContext, string[]>();

/**
 * A browser context whose every page reports what it breaks of its Content-Security-Policy: the console messages
 * Chromium writes for a refused inline style, script or source, and the page's `securitypolicyviolation` events
 * (listened to by a script the browser injects itself, which the policy does not govern).
 */
export async function watchedContext(
  browser: Browser,
  width = 375,
  storageState?: SignedInState,
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height: 800 }, storageState });
  const reports: string[] = [];
  cspReports.set(context, reports);
  await context.exposeBinding('__fundiCspViolation', ({ page }, text: string) => {
    reports.push(`${page.url()}: ${text}`);
  });
  await context.addInitScript(
    "document.addEventListener('securitypolicyviolation', function (e) { window.__fundiCspViolation(e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline') + ' at line ' + e.lineNumber + ': ' + e.sample); }, true);",
  );
  context.on('page', (page) =>
    page.on('console', (m) => {
      if (/content security policy/i.test(m.text())) reports.push(`${page.url()}: ${m.text()}`);
    }),
  );
  return context;
}

/** The policy breaches the context's pages reported since the last call (they are cleared). */
export function cspViolations(context: BrowserContext): string[] {
  const reports = cspReports.get(context);
  if (!reports) throw new Error('a context of the dashboard tests must come from watchedContext');
  return reports.splice(0);
}

/**
 * Checks a page as a whole at each of `WIDTHS`: nothing it broke of its Content-Security-Policy, no violation of
 * axe-core's WCAG 2.2 A/AA rules, nothing wider than the screen, no internal learner id in a table; a screenshot at
 * each width when `writeScreenshots` or `o.screenshots` says so. The page is left at the width it had.
 */
export async function checkPage(page: Page, name: string, o: { screenshots?: 'always' } = {}): Promise<void> {
  const was = page.viewportSize();
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    expect(await wcagViolations(page), `${name} at ${width} px`).toEqual([]);
    // Wide tables scroll inside their own box; the page itself must never scroll sideways.
    const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
    expect(overflow, `${name} is wider than the screen at ${width} px`).toBeLessThanOrEqual(0);
    await screenshot(page, OUT, `${name}-${width}`, o.screenshots === 'always');
  }
  // People, not ids: a table names learners, never by their internal id.
  const tables = (await page.locator('table').allTextContents()).join(' ');
  expect(tables, `${name}: an internal learner id in a table`).not.toMatch(/lrn_/);
  if (was) await page.setViewportSize(was);
  expect(cspViolations(page.context()), `${name}: Content-Security-Policy violations`).toEqual([]);
}
