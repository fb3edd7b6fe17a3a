import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect } from 'vitest';
import { cspViolations, watchedContext, type SignedInState } from './browser-page-checks.js';
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
