import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { assessmentBody, enrolledLearner, idNumberFor } from '../testing/training-fixtures.js';

const LIMIT = 12;

/** Every file under `dir` with its size, recursively (none when it does not exist). */
function filesUnder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [`${p}:${statSync(p).size}`];
  });
}

/**
 * The verification page's file check (docs/api.md, "Statements of Results"): a form that posts the PDF, answered
 * with whether its SHA-256 is the statement's; nothing is stored; counted with the page per address; size-limited.
 */
describeEachStorage(
  'the verification page checks a PDF by file',
  (_get, kind) => {
    let s: TestServer;
    let code: string;
    let pdf: Uint8Array;
    beforeAll(async () => {
      s = await startTestServer(kind, { anonymousPerMinute: LIMIT });
      const key = (await s.tenant('verify-form')).key;
      expect((await s.call('PUT', '/api/v1/settings/regulator', key, { sdpCode: 'SDP0099' })).status).toBe(200);
      const { learnerId, enrolment } = await enrolledLearner(s, key, '/api/v1', {
        code: 'VFY',
        idNumber: idNumberFor(171),
      });
      for (const m of ['KM-01', 'PM-01', 'WM-01'])
        await s.call('POST', '/api/v1/assessments', key, assessmentBody(learnerId, m, { enrolmentId: enrolment.id }));
      const issued = await s.call('POST', `/api/v1/learners/${learnerId}/statements`, key, {
        enrolmentId: enrolment.id,
      });
      expect(issued.status, JSON.stringify(issued.body)).toBe(201);
      code = issued.body.verificationCode;
      const d = await s.call('GET', `/api/v1/learners/${learnerId}/statements/${issued.body.id}/download`, key);
      pdf = new Uint8Array(await (await fetch(d.body.url)).arrayBuffer());
    });
    afterAll(() => s?.close());

    const post = (body: FormData | Uint8Array, headers: Record<string, string> = {}) =>
      fetch(`${s.url}/verify/${code}`, { method: 'POST', body, headers });
    const withFile = (bytes: Uint8Array, name = 'statement.pdf') => {
      const f = new FormData();
      f.append('file', new Blob([bytes], { type: 'application/pdf' }), name);
      return f;
    };

    it('offers the form, says whether the file is the one issued, and keeps nothing', async () => {
      const page = await fetch(`${s.url}/verify/${code}`);
      const text = await page.text();
      expect(text).toContain(
        `<form class="card" method="post" action="/verify/${code}" enctype="multipart/form-data">`,
      );
      expect(text).toContain('<input id="file" name="file" type="file"');
      expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");

      const stored = filesUnder(s.filesDir ?? '');
      const same = await post(withFile(pdf));
      expect(same.status).toBe(200);
      expect(same.headers.get('content-security-policy')).toContain("default-src 'none'");
      const shown = await same.text();
      expect(shown).toContain('This file is the Statement of Results issued under this code.');
      expect(shown).toContain('T. Nkosi');
      expect(shown).not.toContain('Thandi');

      const altered = Uint8Array.from(pdf);
      altered[altered.length - 20] = altered[altered.length - 20]! ^ 1;
      const other = await post(withFile(altered));
      expect(other.status).toBe(200);
      expect(await other.text()).toContain('This file is not the one issued under this code');
      expect(filesUnder(s.filesDir ?? '')).toEqual(stored);
    });

    it('refuses a form without a file, a file over 5 MB, and an unknown code', async () => {
      const empty = new FormData();
      empty.append('note', 'no file');
      const none = await post(empty);
      expect(none.status).toBe(400);
      expect(await none.text()).toContain('Choose the PDF to check');
      const big = await post(withFile(new Uint8Array(5 * 1024 * 1024 + 1)));
      expect(big.status).toBe(413);
      expect(await big.text()).toContain('The file is too large');
      const unknown = await fetch(`${s.url}/verify/0000000000000000`, { method: 'POST', body: withFile(pdf) });
      expect(unknown.status).toBe(404);
    });

    it('is counted with the page per client address: past the limit it answers 429', async () => {
      const statuses: number[] = [];
      for (let n = 0; n < LIMIT + 1 && !statuses.includes(429); n++) statuses.push((await post(withFile(pdf))).status);
      expect(statuses.at(-1)).toBe(429);
      expect(statuses.slice(0, -1).every((x) => x === 200)).toBe(true);
    });
  },
  ['memory', 'sqlite'],
);
