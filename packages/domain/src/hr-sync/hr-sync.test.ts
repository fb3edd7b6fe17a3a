import { describe, expect, it } from 'vitest';
import { DomainError } from '../common/errors.js';
import {
  DEFAULT_FIELD_MAPPING,
  OPTIONAL_SPEC_HR_FIELDS,
  applyMapping,
  inHrTerms,
  parseFieldMapping,
} from './hr-mapping.js';
import { HrSyncConfig, generateHrKey, sameHash } from './hr-sync-config.js';

const NOW = new Date('2026-06-01T08:00:00.000Z');

describe('HR field mapping', () => {
  it('accepts the default mapping and a custom one', () => {
    expect(parseFieldMapping(DEFAULT_FIELD_MAPPING)).toEqual(DEFAULT_FIELD_MAPPING);
    const custom = {
      staffNo: 'learner.employeeRef',
      a: 'learner.firstName',
      b: 'learner.lastName',
      c: 'learner.idNumber',
    };
    expect(parseFieldMapping(custom)).toEqual(custom);
  });

  it('refuses unknown targets, doubles, reserved names and a mapping without the identity fields', () => {
    const fields = (v: unknown) => {
      try {
        parseFieldMapping(v);
      } catch (e) {
        return (e as DomainError).details.map((d) => d.field);
      }
      return [];
    };
    expect(fields({ ...DEFAULT_FIELD_MAPPING, shoe: 'learner.shoeSize' })).toEqual(['fieldMapping.shoe']);
    expect(fields({ ...DEFAULT_FIELD_MAPPING, x: 'enrolment.code' })).toEqual(['fieldMapping.x']);
    expect(fields({ ...DEFAULT_FIELD_MAPPING, again: 'learner.firstName' })).toEqual(['fieldMapping.again']);
    expect(fields({ ...DEFAULT_FIELD_MAPPING, programmeCode: 'learner.employer' })).toEqual([
      'fieldMapping.programmeCode',
    ]);
    expect(fields({ employeeId: 'learner.employeeRef' })).toEqual(['fieldMapping']);
    expect(fields([])).toEqual(['fieldMapping']);
  });

  it('maps HR data to learner input, keeps the allowed event fields and names a stray field', () => {
    const { learner, extra } = applyMapping(
      DEFAULT_FIELD_MAPPING,
      { employeeId: 'E-1', saIdNumber: '9001049818080', programmeCode: 'P' },
      ['programmeCode'],
    );
    expect(learner).toEqual({ employeeRef: 'E-1', idNumber: '9001049818080' });
    expect(extra).toEqual({ programmeCode: 'P' });
    expect(() => applyMapping(DEFAULT_FIELD_MAPPING, { hat: 1 }, [])).toThrow(/hat/);
  });

  it("ignores the specification's optional fields a mapping leaves out, and refuses any other unmapped field", () => {
    expect(OPTIONAL_SPEC_HR_FIELDS).toEqual(['email', 'department', 'jobTitle']);
    const custom = {
      staffNo: 'learner.employeeRef',
      givenName: 'learner.firstName',
      surname: 'learner.lastName',
      nationalId: 'learner.idNumber',
      workEmail: 'learner.email',
    };
    const data = {
      staffNo: 'S-1',
      workEmail: 'a@example.org',
      email: 'not-an-email',
      department: 'Plant',
      jobTitle: 'X',
    };
    expect(applyMapping(custom, data, []).learner).toEqual({ employeeRef: 'S-1', email: 'a@example.org' });
    expect(() => applyMapping(custom, { ...data, employeeId: 'E-1' }, [])).toThrow(/employeeId/);
    // Mapped, an optional field is a learner field like any other.
    expect(applyMapping(DEFAULT_FIELD_MAPPING, { department: 'Plant' }, []).learner).toEqual({ department: 'Plant' });
  });

  it('renames learner fields in errors to the HR fields that carry them', () => {
    const e = DomainError.invalidMany([
      { field: 'idNumber', message: 'bad' },
      { field: 'employeeRef', message: 'is required' },
      { field: 'homeAddress.postalCode', message: 'bad' },
    ]);
    const hr = inHrTerms(e, { ...DEFAULT_FIELD_MAPPING, addr: 'learner.homeAddress' });
    expect(hr.details.map((d) => d.field)).toEqual(['saIdNumber', 'employeeId', 'addr.postalCode']);
    expect(hr.message).toBe('saIdNumber: bad');
  });
});

describe('HR webhook keys', () => {
  it('are random, and the previous key works for 24 hours after a rotation', () => {
    expect(generateHrKey()).toMatch(/^hrk_[A-Za-z0-9_-]{32}$/);
    expect(generateHrKey()).not.toBe(generateHrKey());
    const first = HrSyncConfig.rotateKey(HrSyncConfig.initial('ten_1', NOW), 'h1', 'hrk_1', NOW);
    expect(first.previousKeyHash).toBeNull();
    const second = HrSyncConfig.rotateKey(first, 'h2', 'hrk_2', NOW);
    expect(HrSyncConfig.keyMatch(second, 'h2', NOW)).toBe('current');
    expect(HrSyncConfig.keyMatch(second, 'h1', new Date(NOW.getTime() + 86_399_000))).toBe('previous');
    expect(HrSyncConfig.keyMatch(second, 'h1', new Date(NOW.getTime() + 86_400_000))).toBeNull();
    expect(HrSyncConfig.keyMatch(second, 'h3', NOW)).toBeNull();
  });

  it('compares hashes without regard to where they differ', () => {
    expect(sameHash('abcd', 'abcd')).toBe(true);
    expect(sameHash('abcd', 'abce')).toBe(false);
    expect(sameHash('abcd', 'abc')).toBe(false);
    expect(sameHash('', '')).toBe(true);
  });
});
