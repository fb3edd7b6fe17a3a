import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import axe from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect } from 'vitest';
import type { TestReceiver } from '@fundi/adapters/testing';
import { PASSWORD, staffUser } from '../testing/dashboard-client.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { enrolledLearner } from '../testing/training-fixtures.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const OUT = fileURLToPath(new URL('../../test-output/dashboard/', import.meta.url));
export const XSS = '<img src=x onerror=alert(1)>';
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4e70000000049454e44ae426082',
  'hex',
);

// Under CI=true a missing Chromium fails the run; locally the suite is skipped with a notice.
const available = existsSync(CHROMIUM);
if (!available && process.env.CI !== 'true') console.warn(`dashboard browser tests skipped: no ${CHROMIUM}`);
/** Whether the browser suites run (each file then picks `describe` or `describe.skip`). */
export const runBrowserTests = available || process.env.CI === 'true';

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

/** Opens the navigation where it is folded behind "Menu" (a phone's width); on a wide screen it is already shown. */
export async function openMenu(page: Page): Promise<void> {
  const summary = page.locator('details.menu > summary');
  if (await summary.isVisible()) {
    const open = await page.locator('details.menu').getAttribute('open');
    if (open === null) await summary.click();
  }
}

/** Follows a link of the main navigation, opening the menu first on a phone. */
export async function navigate(page: Page, name: string): Promise<void> {
  await openMenu(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
}

/** What each browser test file shares: one server and one Chromium, set up in its beforeAll. */
export interface BrowserDashboard {
  s: TestServer;
  browser: Browser;
  receiver: TestReceiver;
  apiKey: string;
  learnerId: string;
  evidenceId: string;
}

/**
 * Starts the server with tenant "browser" (an admin, a viewer, a learner named like markup enrolled in P-WEB with one
 * PNG piece of evidence), a webhook receiver, and Chromium. Fills `d` as it goes, so that closeBrowserDashboard(d)
 * also closes what a failed start had opened.
 */
export async function startBrowserDashboard(d: Partial<BrowserDashboard>): Promise<BrowserDashboard> {
  // Chromium starts while the server is set up; a start that fails still waits for it, so that it can be closed.
  const launched = chromium.launch({ executablePath: CHROMIUM, args: ARGS }).then((b) => {
    d.browser = b;
    return b;
  });
  // Handled here until awaited: a launch that fails while the server is being set up is reported by that await.
  const settled = launched.catch(() => undefined);
  try {
    return await setUpDashboard(d, launched);
  } catch (e) {
    await settled;
    throw e;
  }
}

async function setUpDashboard(d: Partial<BrowserDashboard>, launched: Promise<Browser>): Promise<BrowserDashboard> {
  const s = await startTestServer('sqlite', { worker: {} });
  d.s = s;
  const apiKey = (await s.tenant('browser')).key;
  await Promise.all([staffUser(s.container, 'browser', 'admin'), staffUser(s.container, 'browser', 'viewer')]);
  d.receiver = await s.receiver();
  const { learnerId } = await enrolledLearner(s, apiKey, '/api/v1', { code: 'P-WEB', idNumber: '9001049818080' });
  await s.call('PATCH', `/api/v1/learners/${learnerId}`, apiKey, { firstName: XSS });
  const form = new FormData();
  form.append('learnerId', learnerId);
  form.append('moduleId', 'KM-01');
  form.append('evidenceType', 'portfolio');
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'site-photo.png');
  const up = await fetch(`${s.url}/api/v1/tenants/browser/evidence`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}` },
    body: form,
  });
  expect(up.status).toBe(201);
  const evidenceId = ((await up.json()) as { id: string }).id;
  return { s, browser: await launched, receiver: d.receiver, apiKey, learnerId, evidenceId };
}

export async function closeBrowserDashboard(d: Partial<BrowserDashboard>): Promise<void> {
  await d.browser?.close();
  await d.receiver?.close();
  await d.s?.close();
}

/** The cookies of a context that signed in, to start another context signed in with the same session. */
export type SignedInState = Awaited<ReturnType<BrowserContext['storageState']>>;

/**
 * A new context signed in as the given staff user, its dialogs recorded (and accepted) in dialogs, on the dashboard's
 * overview. With `sessions`, a user who signed in before starts with that session's cookies (signing in is a
 * deliberately slow password hash, seconds on a loaded machine); when that session has ended (a test signed out, the
 * user was disabled) the overview sends the page to sign-in, and it signs in through the form again.
 */
export async function signedInAs(
  s: TestServer,
  browser: Browser,
  dialogs: string[],
  email: string,
  width = 375,
  sessions?: Map<string, SignedInState>,
): Promise<{ context: BrowserContext; page: Page }> {
  const saved = sessions?.get(email);
  const context = await watchedContext(browser, width, saved);
  const page = await context.newPage();
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.accept();
  });
  if (saved) {
    await page.goto(`${s.url}/dashboard`);
    if (page.url() === `${s.url}/dashboard`) return { context, page };
    sessions?.delete(email);
    await context.clearCookies();
  }
  await page.goto(`${s.url}/dashboard/sign-in?tenant=browser`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${s.url}/dashboard`);
  sessions?.set(email, await context.storageState());
  return { context, page };
}

/** What a browser suite's tests share: the started dashboard, the dialogs its pages raised, and signing in. */
export interface BrowserSuite extends BrowserDashboard {
  dialogs: string[];
  /**
   * A new context signed in as the given staff user (375 px wide unless told), on the overview: through the sign-in
   * form the first time, then with that session while it lasts (signedInAs).
   */
  signedIn(email: string, width?: number): Promise<{ context: BrowserContext; page: Page }>;
  /** A new context nobody signed in to (375 px wide unless told). */
  anonymous(width?: number): Promise<BrowserContext>;
}

/**
 * A browser suite (skipped as `runBrowserTests` says) against one `startBrowserDashboard`, closed after its tests.
 * Each test signs in (scrypt) and runs axe on several pages: seconds each, more on a loaded machine.
 */
export function describeBrowserSuite(name: string, suite: (dashboard: () => BrowserSuite) => void): void {
  (runBrowserTests ? describe : describe.skip)(name, { timeout: 90_000 }, () => {
    const d: Partial<BrowserDashboard> = {};
    const dialogs: string[] = [];
    const contexts: BrowserContext[] = [];
    let started: BrowserSuite | undefined;
    // Each staff user's session once signed in through the form: later contexts of the file reuse it.
    const sessions = new Map<string, SignedInState>();
    const track = <C extends BrowserContext>(c: C) => {
      contexts.push(c);
      return c;
    };
    beforeAll(async () => {
      const b = await startBrowserDashboard(d);
      started = {
        ...b,
        dialogs,
        signedIn: async (email, width = 375) => {
          const opened = await signedInAs(b.s, b.browser, dialogs, email, width, sessions);
          track(opened.context);
          return opened;
        },
        anonymous: async (width = 375) => track(await watchedContext(b.browser, width)),
      };
    }, 60_000);
    // Every page a test visited, checked or not, broke nothing of its Content-Security-Policy.
    afterEach(() => {
      const seen = contexts.splice(0).flatMap(cspViolations);
      expect(seen, 'Content-Security-Policy violations').toEqual([]);
    });
    afterAll(() => closeBrowserDashboard(d));
    suite(() => {
      if (!started) throw new Error(`the dashboard of "${name}" has not started`);
      return started;
    });
  });
}
