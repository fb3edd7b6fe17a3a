import { beforeAll, describe, expect, it } from 'vitest';
import { reposOf } from '../capabilities/index.js';
import { aLearnerInput } from '@fundi/domain/testing';
import { FORMS, type FormUnderTest } from '../testing/http-forms.js';
import { clock, learnersForm, s, startLearnersServer } from './learners-http-fixture.js';

startLearnersServer();

describe.each(FORMS.map((f, i) => [f.name, f, i] as const))(
  'learners over HTTP: %s: get, patch, delete',
  (_name, form: FormUnderTest, i) => {
    const { slug, url, expectInvalid, tenants } = learnersForm(form, i);
    let admin: string;
    const create = (body: Record<string, unknown>, key = admin) => s.call('POST', url(), key, body);

    beforeAll(async () => {
      admin = await tenants();
    });

    describe('get, patch, delete', () => {
      it('get answers the bare learner; unknown id is 404', async () => {
        const made = (await create(aLearnerInput())).body;
        const got = await s.call('GET', url(`/${made.id}`), admin);
        expect(got.status).toBe(200);
        expect(got.body).toEqual(made);
        const missing = await s.call('GET', url('/lrn_00000000000000000000000000'), admin);
        expect(missing.status).toBe(404);
        expect(missing.body.error.code).toBe(form.codes.notFound);
      });

      it('patch changes the given fields only and normalises the mobile', async () => {
        const made = (await create(aLearnerInput({ firstName: 'Thandi', lastName: 'Nkosi' }))).body;
        clock.advance(1000);
        const res = await s.call('PATCH', url(`/${made.id}`), admin, {
          firstName: 'Lindiwe',
          mobile: '0721234567',
          employeeRef: null,
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body).toMatchObject({
          id: made.id,
          firstName: 'Lindiwe',
          lastName: 'Nkosi',
          mobile: '+27721234567',
          employeeRef: null,
          updatedAt: clock.now().toISOString(),
          createdAt: made.createdAt,
        });
        await expect(s.call('GET', url(`/${made.id}`), admin).then((r) => r.body.firstName)).resolves.toBe('Lindiwe');
      });

      it.each([
        ['bad Luhn', { idNumber: '9001049881080' }, 'idNumber'],
        ['bad email', { email: 'x@' }, 'email'],
        ['bad mobile', { mobile: '+2782' }, 'mobile'],
        ['blank lastName', { lastName: '' }, 'lastName'],
        ['unknown field', { tenantId: 'ten_x' }, 'tenantId'],
        ['bad provinceCode', { provinceCode: 'GP' }, 'provinceCode'],
        ['idNumber and saIdNumber differ', { idNumber: '9001049818080', saIdNumber: '8001015009087' }, 'saIdNumber'],
      ])('patch refuses %s', async (_label, body, field) => {
        const made = (await create(aLearnerInput())).body;
        await expectInvalid(await s.call('PATCH', url(`/${made.id}`), admin, body), field);
      });

      it("patch: 409 on another learner's idNumber or email (any case); 404 for an unknown id", async () => {
        const a = (await create(aLearnerInput({ email: `patch.a.${i}@example.co.za` }))).body;
        const b = (await create(aLearnerInput())).body;
        const r1 = await s.call('PATCH', url(`/${b.id}`), admin, { idNumber: a.idNumber });
        expect(r1.status).toBe(409);
        expect(r1.body.error.code).toBe(form.codes.conflict);
        const r2 = await s.call('PATCH', url(`/${b.id}`), admin, { email: `PATCH.A.${i}@example.co.za` });
        expect(r2.status).toBe(409);
        const r3 = await s.call('PATCH', url('/lrn_00000000000000000000000000'), admin, { firstName: 'X' });
        expect(r3.status).toBe(404);
        expect(r3.body.error.code).toBe(form.codes.notFound);
      });

      it('delete is a POPIA erasure: 204, then 404, unlisted, ID number free, audited, personal columns null', async () => {
        const made = (
          await create(
            aLearnerInput({
              employeeRef: `ERASE-${i}`,
              mobile: '0821234567',
              homeAddress: { line1: '1 Main Rd', postalCode: '2001' },
            }),
          )
        ).body;
        const del = await s.call('DELETE', url(`/${made.id}`), admin);
        expect(del.status).toBe(204);
        expect(del.body).toBeNull();
        expect((await s.call('GET', url(`/${made.id}`), admin)).status).toBe(404);
        expect((await s.call('DELETE', url(`/${made.id}`), admin)).status).toBe(404);
        expect((await s.call('PATCH', url(`/${made.id}`), admin, { firstName: 'X' })).status).toBe(404);
        const listed = await s.call('GET', url(`?employeeRef=ERASE-${i}`), admin);
        expect(listed.body.data).toEqual([]);
        const tenantId = (await reposOf(s.container).tenants.findBySlug(slug))!.id;
        const audit = await reposOf(s.container).audit.list(tenantId, { resourceId: made.id, limit: 10 });
        expect(audit.map((a) => a.action)).toContain('learner.erased');
        const row = await s.storage.db!.first<Record<string, unknown>>('SELECT * FROM learners WHERE id = ?', [
          made.id,
        ]);
        for (const c of [
          'first_name',
          'last_name',
          'middle_name',
          'id_number',
          'email',
          'email_lower',
          'mobile',
          'employee_ref',
          'home_address_1',
          'home_postal_code',
          'date_of_birth',
        ]) {
          expect(row![c], c).toBeNull();
        }
        expect(row!.erased_at).toBeTruthy();
        const again = await create(aLearnerInput({ idNumber: made.idNumber, email: made.email }));
        expect(again.status).toBe(201);
      });
    });
  },
);
