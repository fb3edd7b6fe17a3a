import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { axeViolations, cspViolations, screenshot } from '../dashboard/browser-page-checks.js';

const OUT = fileURLToPath(new URL('../../test-output/portal/', import.meta.url));
/** The widths every portal page is looked at: a common phone and the smallest one. */
export const PHONE_WIDTHS = [375, 320] as const;
/** A page's HTML and its stylesheet, before images (docs/dashboard.md, "Learner portal"). */
const MAX_PAGE_BYTES = 50 * 1024;

/** Every WCAG 2.0, 2.1 and 2.2 A and AA rule axe-core has, whatever the impact. */
async function wcagViolations(page: Page): Promise<string[]> {
  return (await axeViolations(page)).map(
    (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

/**
 * Checks a portal page at each of `widths` (every phone width unless told): no WCAG A/AA violation axe finds,
 * nothing wider than the screen, no Content-Security-Policy breach, and its HTML plus stylesheet under 50 KB; a
 * screenshot at each width when `writeScreenshots` (dashboard-browser-fixture.ts) says so.
 */
export async function checkPortalPage(
  page: Page,
  name: string,
  widths: readonly number[] = PHONE_WIDTHS,
): Promise<void> {
  const was = page.viewportSize();
  for (const width of widths) {
    await page.setViewportSize({ width, height: 700 });
    expect(await wcagViolations(page), `${name} at ${width} px`).toEqual([]);
    const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
    expect(overflow, `${name} is wider than the screen at ${width} px`).toBeLessThanOrEqual(0);
    await screenshot(page, OUT, `${name}-${width}`);
  }
  if (was) await page.setViewportSize(was);
  const [html, css] = (await page.evaluate(
    "fetch('/learn/assets/portal.css').then((r) => r.text()).then((css) => [new Blob([document.documentElement.outerHTML]).size, new Blob([css]).size])",
  )) as [number, number];
  // The figure docs/benchmarks.md ("Learner portal") reports, in the test's output.
  console.log(`portal page ${name}: HTML ${html} B + CSS ${css} B = ${html + css} B (limit ${MAX_PAGE_BYTES} B)`);
  expect(html + css, `${name}: HTML and CSS`).toBeLessThan(MAX_PAGE_BYTES);
  expect(cspViolations(page.context()), `${name}: Content-Security-Policy violations`).toEqual([]);
}

/**
 * Chromium's "Slow 3G" profile (DevTools' preset: 400 ms round trip, about 50 KB/s each way) on the page's
 * connection, through the DevTools protocol.
 */
export async function slow3g(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 400,
    downloadThroughput: (400 * 1024) / 8,
    uploadThroughput: (400 * 1024) / 8,
  });
}
