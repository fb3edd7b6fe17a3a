import { expect } from 'vitest';
import type { portalServers } from '../portal/portal-http-fixture.js';
import { WebClient, csrfOf } from '../testing/dashboard-client.js';

/** A logbook entry as the submission tests read it: its state, its sign-off request and the answer recorded. */
export type SubmittedEntry = {
  id: string;
  status: string;
  submissionId: string | null;
  signOff: { outcome: string; by: string; comment: string | null; ip: string; hash: string } | null;
};

/** A programme whose workplace module WM-01 asks for 16 signed hours, beside a knowledge module KM-01. */
export function workplaceProgramme(code: string) {
  return {
    code,
    name: 'Electrician',
    type: 'occupational_qualification',
    qualificationId: '91761',
    nqfLevel: 4,
    modules: [
      { code: 'KM-01', name: 'Principles', kind: 'knowledge', credits: 10 },
      { code: 'WM-01', name: 'Workplace experience', kind: 'workplace', credits: 20, requiredHours: 16 },
    ],
  };
}

/** The logbook tests' world and the supervisor's side: the mailed link, and answering its page as a browser would. */
export function logbookHelpers(t: ReturnType<typeof portalServers>) {
  /** A tenant with a programme whose WM-01 asks for 16 signed hours, and an enrolled learner. */
  async function world() {
    const w = await t.world();
    const code = `P-LOG${w.n}`;
    const p = await t.s.call('POST', '/api/v1/programmes', w.key, workplaceProgramme(code));
    expect(p.status, JSON.stringify(p.body)).toBe(201);
    expect(p.body.modules[1].requiredHours).toBe(16);
    const l = await t.learner(w, 1, { email: `log${w.n}@example.org` });
    const e = await t.s.call('POST', '/api/v1/enrolments', w.key, {
      learnerId: l.id,
      programmeCode: code,
      startDate: '2026-01-10',
    });
    expect(e.status).toBe(201);
    return { w, l, code };
  }

  const entryBody = (learnerId: string, date: string, supervisor = 'boss') => ({
    learnerId,
    moduleCode: 'WM-01',
    date,
    hours: 8,
    activity: 'Installed conduit on the second floor',
    workplace: 'Ubuntu Electrical',
    supervisor: { name: 'Sipho Khumalo', email: `${supervisor}@site.example` },
  });

  /** The sign-off link of the latest mail to the supervisor, as a path of this server. */
  async function signOffLink(address: string, count: number): Promise<string> {
    const mails = await t.until(`${count} sign-off mail(s)`, async () => {
      const all = await t.allMailsTo(address);
      return all.length >= count ? all : null;
    });
    return /https:\/\/fundi\.example(\/learn\/sign-off\?token=[\w%.-]+)/.exec(mails.at(-1)!.text)![1]!;
  }

  /** Opens the link's page and answers it with every hash the page carries. */
  async function answer(path: string, outcome: 'confirmed' | 'queried', comment = '') {
    const web = new WebClient(t.s.url);
    const page = await web.get(path);
    if (page.status !== 200) return { status: page.status, text: page.text };
    const token = decodeURIComponent(/token=([^&]+)/.exec(path)![1]!);
    const hash = [...page.text.matchAll(/name="hash" value="([^"]+)"/g)].map((m) => m[1]!);
    const res = await web.post('/learn/sign-off', { _csrf: csrfOf(page.text), token, hash, outcome, comment });
    return { status: res.status, text: res.text, page: page.text };
  }

  return { world, entryBody, signOffLink, answer };
}
