import { beforeAll, describe, expect, it } from 'vitest';
import { anIdNumber } from '@fundi/domain/testing';
import { aLearnerInput, uniqueIdNumber } from '@fundi/domain/testing';
import type { CallResult } from '@fundi/server/testing';
import { FORMS, type FormUnderTest } from '../testing/http-forms.js';
import { clock, learnersForm, s, startLearnersServer } from './learners-http-fixture.js';

startLearnersServer();

const CITIZEN_2 = anIdNumber({ yy: 90, mm: 1, dd: 4, sequence: 9818, citizenship: 2 });

/** Bodies that must be refused, and the field the error must name. */
const INVALID_CREATES: [string, Record<string, unknown>, string][] = [
  ['missing firstName', { firstName: undefined }, 'firstName'],
  ['missing lastName', { lastName: undefined }, 'lastName'],
  ['blank firstName', { firstName: '   ' }, 'firstName'],
  ['missing idNumber', { idNumber: undefined }, 'idNumber'],
  ['bad Luhn', { idNumber: '9001049881080' }, 'idNumber'],
  ['30 February', { idNumber: '9002302419087' }, 'idNumber'],
  ['citizenship digit 2', { idNumber: CITIZEN_2 }, 'idNumber'],
  ['non-digits', { idNumber: '9001049881a83' }, 'idNumber'],
  ['wrong length', { idNumber: '90010498813' }, 'idNumber'],
  ['idNumber not a string', { idNumber: 9001049818080 }, 'idNumber'],
  ['idNumber and saIdNumber differ', { idNumber: '9001049818080', saIdNumber: '8001015009087' }, 'saIdNumber'],
  ['bad Luhn in saIdNumber', { idNumber: undefined, saIdNumber: '9001049881080' }, 'saIdNumber'],
  ['bad email', { email: 'not-an-email' }, 'email'],
  ['bad mobile', { mobile: '0121234567' }, 'mobile'],
  ['unknown body field', { favouriteColour: 'blue' }, 'favouriteColour'],
  ['bad provinceCode', { provinceCode: 'GP' }, 'provinceCode'],
  ['bad equityCode', { equityCode: 'XX' }, 'equityCode'],
  ['bad popiActDate', { popiActDate: '2026-02-30' }, 'popiActDate'],
  ['bad postal code', { homeAddress: { line1: '1 Main Rd', postalCode: '12' } }, 'homeAddress.postalCode'],
];

const INVALID_QUERIES: [string, string, string][] = [
  ['limit 0', 'limit=0', 'limit'],
  ['limit 101', 'limit=101', 'limit'],
  ['limit abc', 'limit=abc', 'limit'],
  ['limit 2.5', 'limit=2.5', 'limit'],
  ['bad createdFrom', 'createdFrom=2026-13-45', 'createdFrom'],
  ['createdFrom not a date', 'createdFrom=yesterday', 'createdFrom'],
  ['unknown parameter', 'colour=blue', 'colour'],
];

describe.each(FORMS.map((f, i) => [f.name, f, i] as const))(
  'learners over HTTP: %s: create and list',
  (_name, form: FormUnderTest, i) => {
    const { url, expectInvalid, tenants } = learnersForm(form, i);
    let admin: string;
    const create = (body: Record<string, unknown>, key = admin) => s.call('POST', url(), key, body);

    beforeAll(async () => {
      admin = await tenants();
    });

    describe('create', () => {
      it('201 with the bare learner, derived facts and a prefixed opaque id', async () => {
        const res = await create(
          aLearnerInput({
            idNumber: '1012311412187',
            mobile: '0821234567',
            provinceCode: '7',
            popiActAgree: true,
            popiActDate: '2026-05-31',
          }),
        );
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        expect(res.body).toMatchObject({
          idNumber: '1012311412187',
          dateOfBirth: '2010-12-31',
          gender: 'F',
          citizenship: 'permanent_resident',
          mobile: '+27821234567',
          provinceCode: '7',
          popiActAgree: true,
          createdAt: clock.now().toISOString(),
        });
        expect(res.body.id).toMatch(/^lrn_[0-9a-z]{26}$/);
        expect(res.body).not.toHaveProperty('data');
        expect(res.body).not.toHaveProperty('tenantId');
      });

      it('accepts the alias saIdNumber, and both spellings when they agree', async () => {
        const id = uniqueIdNumber();
        const res = await create(aLearnerInput({ idNumber: undefined, saIdNumber: id }));
        expect(res.status).toBe(201);
        expect(res.body.idNumber).toBe(id);
        expect(res.body).not.toHaveProperty('saIdNumber');
        const id2 = uniqueIdNumber();
        await expect(create(aLearnerInput({ idNumber: id2, saIdNumber: id2 })).then((r) => r.status)).resolves.toBe(
          201,
        );
      });

      it.each(INVALID_CREATES)('refuses %s', async (_label, override, field) => {
        const res = await create(aLearnerInput(override));
        await expectInvalid(res, field);
      });

      it('refuses a body that is not JSON', async () => {
        const res = await s.call('POST', url(), admin, '{"firstName": ');
        await expectInvalid(res, 'body');
      });

      it('names every failing field (shape errors together; value errors together)', async () => {
        const shape = await create({ idNumber: '9001049818080', favouriteColour: 'blue' });
        expect(shape.status).toBe(form.invalidStatus);
        expect(form.fields(shape.body).sort()).toEqual(['favouriteColour', 'firstName', 'lastName']);
        const values = await create(
          aLearnerInput({ idNumber: '9001049881080', email: 'nope', provinceCode: 'GP', mobile: '1' }),
        );
        expect(values.status).toBe(form.invalidStatus);
        expect(form.fields(values.body).sort()).toEqual(['email', 'idNumber', 'mobile', 'provinceCode']);
      });

      it('409 on a duplicate idNumber and on a duplicate email in another case', async () => {
        const first = aLearnerInput({ email: `dup.${i}@Example.co.za` });
        expect((await create(first)).status).toBe(201);
        const byId = await create(aLearnerInput({ idNumber: first.idNumber }));
        expect(byId.status).toBe(409);
        expect(byId.body.error.code).toBe(form.codes.conflict);
        const byEmail = await create(aLearnerInput({ email: `DUP.${i}@example.CO.ZA` }));
        expect(byEmail.status).toBe(409);
        expect(byEmail.body.error.code).toBe(form.codes.conflict);
      });
    });

    describe('list', () => {
      it("answers the form's envelope", async () => {
        const res = await s.call('GET', url('?limit=2'), admin);
        expect(res.status).toBe(200);
        expect(Array.isArray(res.body.data)).toBe(true);
        if (form.invalidStatus === 422) {
          expect(Object.keys(res.body.pagination).sort()).toEqual(['hasMore', 'nextCursor', 'total']);
        } else {
          expect(res.body.pagination).toMatchObject({ limit: 2, offset: 0 });
          expect(Object.keys(res.body.pagination).sort()).toEqual(['hasMore', 'limit', 'offset', 'total']);
        }
      });

      it.each(INVALID_QUERIES)('refuses %s', async (_label, query, field) => {
        await expectInvalid(await s.call('GET', url(`?${query}`), admin), field);
      });

      it('filters by search (name, email, ID prefix), employeeRef and created range', async () => {
        const fslug = `filters-${i}`;
        const key = (await s.tenant(fslug)).key;
        const furl = (q: string) => `${form.learners(fslug)}?${q}`;
        const day = (d: string) => clock.set(`${d}T10:00:00.000Z`);
        day('2026-03-01');
        const zola = (
          await s.call(
            'POST',
            form.learners(fslug),
            key,
            aLearnerInput({
              firstName: 'Zola',
              lastName: 'Mokoena',
              email: `zola.${i}@corp.co.za`,
              idNumber: '9001049818080',
              employeeRef: 'E-1',
            }),
          )
        ).body;
        day('2026-03-02');
        const piet = (
          await s.call(
            'POST',
            form.learners(fslug),
            key,
            aLearnerInput({
              firstName: 'Pieter',
              lastName: 'Botha',
              email: `pb.${i}@example.co.za`,
              idNumber: '7311190013080',
              employeeRef: 'E-2',
            }),
          )
        ).body;
        day('2026-03-03');
        const nal = (
          await s.call(
            'POST',
            form.learners(fslug),
            key,
            aLearnerInput({
              firstName: 'Naledi',
              lastName: 'Zulu',
              email: `nz.${i}@example.co.za`,
              idNumber: '8001015009087',
              employeeRef: 'E-1',
            }),
          )
        ).body;
        clock.set('2026-06-01T08:00:00.000Z');
        const ids = async (q: string) => {
          const r = await s.call('GET', furl(q), key);
          expect(r.status, JSON.stringify(r.body)).toBe(200);
          expect(r.body.pagination.total).toBe(r.body.data.length);
          return r.body.data.map((l: { id: string }) => l.id);
        };
        await expect(ids('search=zol')).resolves.toEqual([zola.id]);
        await expect(ids('search=BOTHA')).resolves.toEqual([piet.id]);
        await expect(ids('search=corp.co')).resolves.toEqual([zola.id]);
        await expect(ids('search=7311')).resolves.toEqual([piet.id]);
        await expect(ids('search=na')).resolves.toEqual([zola.id, nal.id]);
        await expect(ids('employeeRef=E-1')).resolves.toEqual([zola.id, nal.id]);
        await expect(ids('createdFrom=2026-03-02')).resolves.toEqual([piet.id, nal.id]);
        await expect(ids('createdTo=2026-03-02')).resolves.toEqual([zola.id, piet.id]);
        await expect(ids('createdFrom=2026-03-02&createdTo=2026-03-02')).resolves.toEqual([piet.id]);
        await expect(ids('createdFrom=2026-03-02T10:00:00Z&createdTo=2026-03-03T09:59:59Z')).resolves.toEqual([
          piet.id,
        ]);
        await expect(ids('createdFrom=2026-03-01&employeeRef=E-1&search=nal')).resolves.toEqual([nal.id]);
        const backwards = await s.call('GET', furl('createdFrom=2026-03-03&createdTo=2026-03-01'), key);
        expect(backwards.status).toBe(form.invalidStatus);
      });

      it('walks 45 learners in pages of 20 with no duplicates or gaps', async () => {
        const pslug = `paging-${i}`;
        const key = (await s.tenant(pslug)).key;
        const made: string[] = [];
        for (let n = 0; n < 45; n++)
          made.push((await s.call('POST', form.learners(pslug), key, aLearnerInput())).body.id);
        const seen: string[] = [];
        const pages: number[] = [];
        if (form.invalidStatus === 422) {
          let cursor: string | null = null;
          do {
            const r: CallResult = await s.call(
              'GET',
              `${form.learners(pslug)}?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
              key,
            );
            expect(r.status).toBe(200);
            expect(r.body.pagination.total).toBe(45);
            seen.push(...r.body.data.map((l: { id: string }) => l.id));
            pages.push(r.body.data.length);
            cursor = r.body.pagination.nextCursor;
            expect(cursor === null).toBe(!r.body.pagination.hasMore);
          } while (cursor);
        } else {
          for (let offset = 0; ; offset += 20) {
            const r = await s.call('GET', `${form.learners(pslug)}?limit=20&offset=${offset}`, key);
            expect(r.status).toBe(200);
            expect(r.body.pagination).toMatchObject({ total: 45, limit: 20, offset });
            seen.push(...r.body.data.map((l: { id: string }) => l.id));
            pages.push(r.body.data.length);
            if (!r.body.pagination.hasMore) break;
          }
          const past = await s.call('GET', `${form.learners(pslug)}?offset=100`, key);
          expect(past.body).toMatchObject({
            data: [],
            pagination: { total: 45, hasMore: false, offset: 100, limit: 20 },
          });
          await expectInvalid(await s.call('GET', `${form.learners(pslug)}?offset=-1`, key), 'offset');
        }
        expect(pages).toEqual([20, 20, 5]);
        expect(seen).toEqual(made);
        expect(new Set(seen).size).toBe(45);
      });

      it.runIf(form.invalidStatus === 422)('refuses a tampered or foreign cursor', async () => {
        const first = await s.call('GET', `${url()}?limit=1`, admin);
        const cursor: string = first.body.pagination.nextCursor;
        expect(cursor).toBeTruthy();
        const [payload, sig] = cursor.split('.');
        const forged = `${Buffer.from('lrn_00000000000000000000000000').toString('base64url')}.${sig}`;
        for (const bad of [forged, `${payload}.AAAA${sig!.slice(4)}`, 'garbage', `${cursor}x`]) {
          await expectInvalid(await s.call('GET', `${url()}?cursor=${encodeURIComponent(bad)}`, admin), 'cursor');
        }
      });
    });
  },
);
