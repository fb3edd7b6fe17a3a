import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors.js';
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
