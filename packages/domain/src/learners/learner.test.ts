import { describe, expect, it } from 'vitest';
import { DomainError } from '../common/errors.js';
import { aLearnerInput } from '../testing/builders.js';
import { Email, Mobile } from './contact.js';
import { Learner } from './learner.js';

const ctx = { id: 'lrn_x', tenantId: 'ten_x', now: new Date('2026-06-01T08:00:00Z') };

function invalidFields(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError && e.kind === 'invalid') return e.details.map((d) => d.field);
    throw e;
  }
  throw new Error('expected invalid input');
}

describe('Learner.register', () => {
  it('derives date of birth, gender and citizenship from the ID number', () => {
    const l = Learner.register(aLearnerInput({ idNumber: '1012311412187' }), ctx).toSnapshot();
    expect(l).toMatchObject({
      idNumber: '1012311412187',
      dateOfBirth: '2010-12-31',
      gender: 'F',
      citizenship: 'permanent_resident',
    });
  });

  it('accepts the alias saIdNumber, and both when they agree', () => {
    const { idNumber: _, ...rest } = aLearnerInput();
    expect(Learner.register({ ...rest, saIdNumber: '9001049818080' }, ctx).toSnapshot().idNumber).toBe('9001049818080');
    expect(
      Learner.register({ ...rest, idNumber: '9001049818080', saIdNumber: '9001049818080' }, ctx).toSnapshot().idNumber,
    ).toBe('9001049818080');
  });

  it('refuses idNumber and saIdNumber that differ', () => {
    expect(
      invalidFields(() =>
        Learner.register(aLearnerInput({ idNumber: '9001049818080', saIdNumber: '8001015009087' }), ctx),
      ),
    ).toContain('saIdNumber');
  });

  it('collects every failing field', () => {
    expect(invalidFields(() => Learner.register({ email: 'nope', provinceCode: 'GP' }, ctx)).sort()).toEqual([
      'email',
      'firstName',
      'idNumber',
      'lastName',
      'provinceCode',
    ]);
  });

  it('normalises a national mobile number to E.164', () => {
    expect(Learner.register(aLearnerInput({ mobile: '082 123 4567' }), ctx).toSnapshot().mobile).toBe('+27821234567');
  });
});

describe('Learner.update', () => {
  it('returns only the fields that changed and leaves updatedAt alone for a no-op', () => {
    const l = Learner.register(aLearnerInput({ firstName: 'Thandi' }), ctx);
    const later = new Date('2026-06-02T08:00:00Z');
    expect(l.update({ firstName: 'Thandi' }, later)).toEqual([]);
    expect(l.toSnapshot().updatedAt).toBe(ctx.now.toISOString());
    expect(l.update({ firstName: 'Lindiwe', mobile: '0821234567' }, later).map((c) => c.field)).toEqual([
      'firstName',
      'mobile',
    ]);
    expect(l.toSnapshot().updatedAt).toBe(later.toISOString());
  });

  it('re-derives facts when the ID number changes', () => {
    const l = Learner.register(aLearnerInput({ idNumber: '9001049818080' }), ctx);
    l.update({ idNumber: '7311190013080' }, ctx.now);
    expect(l.toSnapshot()).toMatchObject({ dateOfBirth: '1973-11-19', gender: 'F' });
  });
});

describe('contact values', () => {
  it.each(['+27821234567', '0821234567', '+27 61 234 5678', '0731234567'])('mobile %s is accepted', (m) => {
    expect(Mobile.parse(m)).toMatch(/^\+27[678]\d{8}$/);
  });
  it.each(['0121234567', '+2782123456', '082123456', '+44821234567', 12345])('mobile %s is refused', (m) => {
    expect(() => Mobile.parse(m)).toThrow(DomainError);
  });
  it.each(['a@b', 'no at.co.za', 'x@@y.co.za', ''])('email %s is refused', (e) => {
    expect(() => Email.parse(e)).toThrow(DomainError);
  });
});

describe('Learner without an SA ID number', () => {
  const foreign = (o: Record<string, unknown> = {}) =>
    aLearnerInput({
      idNumber: undefined,
      alternateId: 'p1234567',
      alternateIdType: 'passport',
      dateOfBirth: '1994-07-12',
      gender: 'F',
      nationalityCode: 'ZIM',
      ...o,
    });

  it('takes date of birth, gender and nationality as given; citizenship is unknown', () => {
    const l = Learner.register(foreign(), ctx).toSnapshot();
    expect(l).toMatchObject({
      idNumber: null,
      alternateId: 'P1234567',
      alternateIdType: 'passport',
      dateOfBirth: '1994-07-12',
      gender: 'F',
      citizenship: null,
      nationalityCode: 'ZIM',
    });
  });

  it('needs exactly one of idNumber and alternateId', () => {
    expect(invalidFields(() => Learner.register(aLearnerInput({ idNumber: undefined }), ctx))).toEqual(['idNumber']);
    expect(invalidFields(() => Learner.register(foreign({ idNumber: '9001049818080' }), ctx))).toEqual(['alternateId']);
  });

  it('needs the type, date of birth, gender and nationality with an alternateId', () => {
    const fields = invalidFields(() =>
      Learner.register(
        foreign({ alternateIdType: undefined, dateOfBirth: undefined, gender: undefined, nationalityCode: undefined }),
        ctx,
      ),
    );
    expect(fields.sort()).toEqual(['alternateIdType', 'dateOfBirth', 'gender', 'nationalityCode']);
    expect(invalidFields(() => Learner.register(foreign({ alternateIdType: 'driver' }), ctx))).toEqual([
      'alternateIdType',
    ]);
    expect(invalidFields(() => Learner.register(foreign({ dateOfBirth: '2030-01-01' }), ctx))).toEqual(['dateOfBirth']);
    expect(invalidFields(() => Learner.register(foreign({ gender: 'X' }), ctx))).toEqual(['gender']);
  });

  it('refuses a date of birth or gender that disagrees with the SA ID number', () => {
    const input = aLearnerInput({ idNumber: '9001049818080', dateOfBirth: '1990-01-05', gender: 'F' });
    expect(invalidFields(() => Learner.register(input, ctx)).sort()).toEqual(['dateOfBirth', 'gender']);
    const agreeing = aLearnerInput({ idNumber: '9001049818080', dateOfBirth: '1990-01-04', gender: 'M' });
    expect(Learner.register(agreeing, ctx).toSnapshot().alternateIdType).toBeNull();
  });

  it('switches from an alternative ID to an SA ID number on update, and back', () => {
    const l = Learner.register(foreign(), ctx);
    expect(invalidFields(() => l.update({ idNumber: '9001049818080' }, ctx.now))).toEqual(['alternateId']);
    const changes = l.update({ idNumber: '9001049818080', alternateId: null, alternateIdType: null }, ctx.now);
    expect(changes.map((c) => c.field)).toEqual(
      expect.arrayContaining(['idNumber', 'dateOfBirth', 'gender', 'citizenship', 'alternateId']),
    );
    expect(l.toSnapshot()).toMatchObject({ idNumber: '9001049818080', gender: 'M', citizenship: 'citizen' });
    expect(invalidFields(() => l.update({ idNumber: null }, ctx.now))).toEqual(['idNumber']);
    l.update(
      { idNumber: null, alternateId: 'R-55', alternateIdType: 'refugee', dateOfBirth: '1991-02-03', gender: 'F' },
      ctx.now,
    );
    expect(l.toSnapshot()).toMatchObject({ idNumber: null, alternateId: 'R-55', citizenship: null, gender: 'F' });
  });
});
