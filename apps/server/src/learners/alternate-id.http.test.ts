import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import { aLearnerInput } from '@fundi/domain/testing';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { FORMS } from '../testing/http-forms.js';

const foreign = (n: string, o: Record<string, unknown> = {}) =>
  aLearnerInput({
    idNumber: undefined,
    alternateId: n,
    alternateIdType: 'passport',
    dateOfBirth: '1994-07-12',
    gender: 'F',
    nationalityCode: 'ZIM',
    ...o,
  });

describeEachStorage(
  'learners with an alternative ID over HTTP',
  (_get, kind) => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer(kind);
    });
    afterAll(() => s?.close());

    describe.each(FORMS.map((f, i) => [f.name, f, i] as const))('%s', (_n, form, i) => {
      const slug = `alt-${i}`;
      let key: string;
      beforeAll(async () => {
        key = (await s.tenant(slug)).key;
      });

      it('creates, reads and lists a passport holder; idNumber and citizenship are null', async () => {
        const r = await s.call('POST', form.learners(slug), key, foreign(`A${i}00001`));
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        expect(r.body).toMatchObject({
          idNumber: null,
          alternateId: `A${i}00001`,
          alternateIdType: 'passport',
          dateOfBirth: '1994-07-12',
          gender: 'F',
          citizenship: null,
          nationalityCode: 'ZIM',
        });
        const g = await s.call('GET', `${form.learners(slug)}/${r.body.id}`, key);
        expect(g.body).toEqual(r.body);
        const events = await s.storage.db?.all<{ data: string }>(
          `SELECT data FROM outbox_events WHERE type = 'learner.created' AND subject_id = ?`,
          [r.body.id],
        );
        if (events) expect(JSON.parse(events[0]!.data)).toMatchObject({ alternateId: `A${i}00001` });
      });

      it('409 on the same (type, number); the same number as another type is another learner', async () => {
        expect((await s.call('POST', form.learners(slug), key, foreign(`B${i}1`))).status).toBe(201);
        const dup = await s.call('POST', form.learners(slug), key, foreign(`b${i}1`));
        expect(dup.status).toBe(409);
        expect(dup.body.error.code).toBe(form.codes.conflict);
        const refugee = await s.call(
          'POST',
          form.learners(slug),
          key,
          foreign(`B${i}1`, { alternateIdType: 'refugee' }),
        );
        expect(refugee.status).toBe(201);
      });

      it.each([
        ['neither identifier', { alternateId: undefined, alternateIdType: undefined }, 'idNumber'],
        ['both identifiers', { idNumber: '9001049818080' }, 'alternateId'],
        ['no type', { alternateIdType: undefined }, 'alternateIdType'],
        ['unknown type', { alternateIdType: 'drivers_licence' }, 'alternateIdType'],
        ['no date of birth', { dateOfBirth: undefined }, 'dateOfBirth'],
        ['no gender', { gender: undefined }, 'gender'],
        ['no nationality', { nationalityCode: undefined }, 'nationalityCode'],
      ])('refuses %s, naming the field', async (_c, o, field) => {
        const r = await s.call('POST', form.learners(slug), key, foreign(`C${i}${field}`, o));
        expect(r.status, JSON.stringify(r.body)).toBe(form.invalidStatus);
        expect(form.fields(r.body)).toContain(field);
      });

      it('erasure removes the alternative ID and frees it', async () => {
        const r = await s.call('POST', form.learners(slug), key, foreign(`E${i}1`));
        expect((await s.call('DELETE', `${form.learners(slug)}/${r.body.id}`, key)).status).toBe(204);
        const row = await s.storage.db?.first<Record<string, unknown>>(
          'SELECT alternate_id, alternate_id_type, date_of_birth FROM learners WHERE id = ?',
          [r.body.id],
        );
        if (row) expect(row).toEqual({ alternate_id: null, alternate_id_type: null, date_of_birth: null });
        expect((await s.call('POST', form.learners(slug), key, foreign(`E${i}1`))).status).toBe(201);
      });
    });
  },
  ['sqlite', 'postgres'],
);
