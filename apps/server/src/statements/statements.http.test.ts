import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { assessmentBody, enrolledLearner, formsOf, idNumberFor } from '../testing/training-fixtures.js';
import { readStatementPdf } from './statement-pdf.js';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describeEachStorage(
  'Statements of Results over HTTP',
  (_get, kind) => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer(kind, { worker: {} });
    });
    afterAll(() => s?.close());

    const raw = (method: string, path: string, body?: Uint8Array) =>
      fetch(`${s.url}${path}`, { method, body }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as Record<string, unknown>,
      }));

    describe.each(formsOf('x').map((f, i) => [f.form, i] as const))('Form %s', (_form, i) => {
      const slug = `sor-${i}`;
      const f = formsOf(slug)[i]!;
      const p = f.prefix;
      const idNumber = idNumberFor(i + 90);
      let key: string;
      let learnerId: string;
      let enrolmentId: string;
      let statement: {
        id: string;
        verificationCode: string;
        verifyUrl: string;
        sha256: string;
        size: number;
        issuedAt: string;
        [field: string]: unknown;
      };
      let pdf: Uint8Array;

      beforeAll(async () => {
        key = (await s.tenant(slug)).key;
        const put = await s.call('PUT', `${p}/settings/regulator`, key, { sdpCode: `SDP${i}0042` });
        expect(put.status, JSON.stringify(put.body)).toBe(200);
        const e = await enrolledLearner(s, key, p, { code: `SOR${i}`, idNumber });
        learnerId = e.learnerId;
        enrolmentId = e.enrolment.id;
      });

      it('refuses while a module has no result, naming it', async () => {
        for (const m of ['KM-01', 'PM-01']) {
          const a = await s.call('POST', `${p}/assessments`, key, assessmentBody(learnerId, m, { enrolmentId }));
          expect(a.status, JSON.stringify(a.body)).toBe(201);
        }
        const r = await s.call('POST', `${p}/learners/${learnerId}/statements`, key, { enrolmentId });
        expect(r.status).toBe(409);
        expect(r.body.error.missingModules ?? r.body.error.details?.missingModules).toEqual(['WM-01']);
      });

      it('issues a PDF listing every module and outcome, with a QR code of its verification page', async () => {
        const a = await s.call(
          'POST',
          `${p}/assessments`,
          key,
          assessmentBody(learnerId, 'WM-01', { enrolmentId, outcome: 'NYC', assessorEmail: 'sipho@example.com' }),
        );
        expect(a.status, JSON.stringify(a.body)).toBe(201);
        const r = await s.call('POST', `${p}/learners/${learnerId}/statements`, key, { enrolmentId });
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        statement = r.body;
        expect(statement).toMatchObject({ learnerId, enrolmentId, status: 'issued', outcome: 'not_yet_competent' });
        expect(r.headers.get('location')).toBe(`${p}/learners/${learnerId}/statements/${statement.id}`);
        expect(statement.verificationCode).toMatch(/^[0-9A-Z]{16}$/);
        expect(statement.verifyUrl).toBe(`${s.url}/verify/${statement.verificationCode}`);

        const one = await s.call('GET', `${p}/learners/${learnerId}/statements/${statement.id}`, key);
        expect(one.body).toEqual(statement);
        const list = await s.call('GET', `${p}/learners/${learnerId}/statements`, key);
        expect(list.body.data).toEqual([statement]);

        const d = await s.call('GET', `${p}/learners/${learnerId}/statements/${statement.id}/download`, key);
        expect(d.status).toBe(200);
        expect(d.body).toMatchObject({ contentType: 'application/pdf', size: statement.size });
        const file = await fetch(d.body.url);
        expect(file.status).toBe(200);
        pdf = new Uint8Array(await file.arrayBuffer());
        expect(sha256(pdf)).toBe(statement.sha256);

        const read = await readStatementPdf(pdf);
        expect(read.keywords).toContain(statement.verificationCode);
        for (const text of ['Thandi Nkosi', idNumber, `SDP${i}0042`, `Programme SOR${i}`, 'KM-01', 'PM-01', 'WM-01'])
          expect(read.text).toContain(text);
        expect(read.text.match(/^Competent$/gm)).toHaveLength(2);
        expect(read.text).toContain('Not yet competent');
        expect(read.text).toContain('sipho@example.com');
        expect(read.qr).toBe(statement.verifyUrl);
      });

      it('verifies publicly: initials and surname, programme, outcome, date; nothing else personal', async () => {
        const v = await raw('GET', `${p}/verify/${statement.verificationCode}`);
        expect(v).toEqual({
          status: 200,
          body: {
            status: 'valid',
            holder: 'T. Nkosi',
            programme: `Programme SOR${i}`,
            outcome: 'not_yet_competent',
            issuedOn: statement.issuedAt.slice(0, 10),
            revokedOn: null,
          },
        });
        const text = JSON.stringify(v.body);
        for (const personal of [idNumber, 'Thandi', '@', idNumber.slice(0, 6)]) expect(text).not.toContain(personal);
        const html = await fetch(statement.verifyUrl);
        expect(html.status).toBe(200);
        expect(html.headers.get('content-security-policy')).toContain("default-src 'none'");
        const shown = await html.text();
        expect(shown).toContain('T. Nkosi');
        expect(shown).toContain(`Programme SOR${i}`);
        expect(shown).toContain('Not yet competent');
        for (const personal of [idNumber, 'Thandi', '@']) expect(shown).not.toContain(personal);
        expect((await fetch(`${s.url}/verify/0000000000000000`)).status).toBe(404);
        expect((await fetch(`${s.url}/verify/%E0%A4%A`)).status).toBe(404);
        expect((await raw('GET', `${p}/verify/0000000000000000`)).status).toBe(404);
        expect((await raw('GET', `${p}/verify/not-a-code`)).status).toBe(404);
      });

      it('tells the issued file from an altered one', async () => {
        expect((await raw('POST', `${p}/verify/${statement.verificationCode}`, pdf)).body.matches).toBe(true);
        const altered = Uint8Array.from(pdf);
        altered[altered.length - 20]! ^= 1;
        expect((await raw('POST', `${p}/verify/${statement.verificationCode}`, altered)).body).toMatchObject({
          matches: false,
          status: 'valid',
        });
      });

      it('is revoked by an admin with a reason; the page and the file check then say so', async () => {
        const manager = await s.key(slug, 'manager');
        const path = `${p}/learners/${learnerId}/statements/${statement.id}/revoke`;
        expect((await s.call('POST', path, manager.key, { reason: 'Wrong module' })).status).toBe(403);
        expect((await s.call('POST', path, key, {})).status).toBe(f.invalid);
        const r = await s.call('POST', path, key, { reason: 'Issued against the wrong module' });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect(r.body).toMatchObject({ status: 'revoked', revokeReason: 'Issued against the wrong module' });
        expect((await s.call('POST', path, key, { reason: 'again' })).status).toBe(409);
        expect((await raw('GET', `${p}/verify/${statement.verificationCode}`)).body).toMatchObject({
          status: 'revoked',
          revokedOn: expect.any(String),
        });
        expect(await (await fetch(statement.verifyUrl)).text()).toContain('was revoked');
        expect((await raw('POST', `${p}/verify/${statement.verificationCode}`, pdf)).body).toMatchObject({
          matches: true,
          status: 'revoked',
        });
        const d = await s.call('GET', `${p}/learners/${learnerId}/statements/${statement.id}/download`, key);
        expect(d.status).toBe(409);
        const audit = await s.call('GET', `${p}/audit?entityId=${statement.id}`, key);
        expect(audit.body.data.map((e: { action: string }) => e.action)).toEqual([
          'statement.revoked',
          'statement.downloaded',
          'statement.download_url_issued',
          'statement.issued',
        ]);
      });

      it('erasure revokes the learner’s statements and empties their pages', async () => {
        const again = await s.call('POST', `${p}/learners/${learnerId}/statements`, key, { enrolmentId });
        expect(again.status).toBe(201);
        expect((await s.call('DELETE', `${p}/learners/${learnerId}`, key)).status).toBe(204);
        const page = await raw('GET', `${p}/verify/${again.body.verificationCode}`);
        expect(page.body).toMatchObject({ status: 'revoked', holder: null, programme: null, outcome: null });
        const deadline = Date.now() + 30_000;
        let audit: { action: string; details: { reason?: string } }[] = [];
        while (Date.now() < deadline) {
          audit = (await s.call('GET', `${p}/audit?entityId=${again.body.id}`, key)).body.data;
          if (audit.some((e) => e.action === 'statement.revoked')) break;
          await new Promise((ok) => setTimeout(ok, 100));
        }
        expect(audit[0]).toMatchObject({ action: 'statement.revoked', details: { reason: 'learner_erased' } });
      });
    });
  },
  ['memory', 'sqlite', 'postgres'],
);

describeEachStorage(
  'the public verification page',
  (_get, kind) => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer(kind, { anonymousPerMinute: 3 });
    });
    afterAll(() => s?.close());

    it('is counted per client address: past the limit it answers 429', async () => {
      const statuses: number[] = [];
      for (let n = 0; n < 4; n++) statuses.push((await fetch(`${s.url}/verify/0000000000000000`)).status);
      expect(statuses).toEqual([404, 404, 404, 429]);
    });
  },
  ['memory'],
);
