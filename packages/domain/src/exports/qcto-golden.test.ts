import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  GOLDEN_ASSESSMENTS,
  GOLDEN_DATE,
  GOLDEN_ENROLMENTS,
  GOLDEN_LEARNERS,
  GOLDEN_PROGRAMME,
  GOLDEN_SETTINGS,
} from '../testing/golden-data.js';
import { qctoFileName } from './fixed-width.js';
import { QCTO01_LENGTH, qcto01Record } from './qcto01.js';
import { QCTO02_LENGTH, qcto02Records } from './qcto02.js';
import type { ReadinessFinding } from './readiness.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'golden');
/** `UPDATE_GOLDEN=1` rewrites the expected files (then read them before committing). */
const update = process.env.UPDATE_GOLDEN === '1';

function build() {
  const findings: ReadinessFinding[] = [];
  let q1 = '';
  for (const l of GOLDEN_LEARNERS) {
    const r = qcto01Record(l, GOLDEN_SETTINGS, GOLDEN_DATE);
    if (r.record) q1 += r.record;
    findings.push(...r.findings);
  }
  let q2 = '';
  for (const e of GOLDEN_ENROLMENTS) {
    const r = qcto02Records(
      {
        learner: GOLDEN_LEARNERS.find((l) => l.id === e.learnerId)!,
        enrolment: e,
        programme: GOLDEN_PROGRAMME,
        assessments: GOLDEN_ASSESSMENTS.filter((a) => a.enrolmentId === e.id),
      },
      GOLDEN_SETTINGS,
      GOLDEN_DATE,
    );
    q2 += r.records.join('');
  }
  return { q1: Buffer.from(q1, 'latin1'), q2: Buffer.from(q2, 'latin1'), findings };
}

function golden(name: string, actual: Buffer): Buffer {
  if (update) writeFileSync(join(dir, name), actual);
  return readFileSync(join(dir, name));
}

/** Field `n` of the layout (1-based start, length) read back from a record, trailing spaces kept. */
const at = (rec: string, start: number, len: number) => rec.slice(start - 1, start - 1 + len);

describe('golden QCTO files (ten learners)', () => {
  const { q1, q2, findings } = build();

  it('QCTO01 equals the committed file byte for byte', () => {
    expect(q1.equals(golden('QCTO01.txt', q1))).toBe(true);
  });

  it('QCTO02 equals the committed file byte for byte', () => {
    expect(q2.equals(golden('QCTO02.txt', q2))).toBe(true);
  });

  it('the readiness report equals the committed one', () => {
    const json = `${JSON.stringify(findings, null, 2)}\n`;
    expect(json).toBe(golden('readiness.json', Buffer.from(json)).toString());
  });

  it('every record is 671 / 213 characters and ends in CRLF; no header, no trailer, ASCII only', () => {
    const lines1 = q1.toString('latin1').split('\r\n');
    const lines2 = q2.toString('latin1').split('\r\n');
    expect(lines1.pop()).toBe('');
    expect(lines2.pop()).toBe('');
    expect(lines1).toHaveLength(6);
    expect(lines2).toHaveLength(18);
    for (const l of lines1) expect(l.length).toBe(QCTO01_LENGTH);
    for (const l of lines2) expect(l.length).toBe(QCTO02_LENGTH);
    expect([...q1, ...q2].every((b) => b === 13 || b === 10 || (b >= 32 && b < 127))).toBe(true);
    expect(q1.toString('latin1').replaceAll('\r\n', '').includes('\n')).toBe(false);
  });

  it('QCTO01 fields sit at the layout positions', () => {
    const [sipho, zoe, tendai, amani] = q1.toString('latin1').split('\r\n');
    expect(at(sipho!, 1, 20)).toBe('SDP0012345          ');
    expect(at(sipho!, 21, 15)).toBe('9001049818080  ');
    expect(at(sipho!, 36, 20).trim()).toBe('');
    expect(at(sipho!, 56, 3)).toBe('533');
    expect(at(sipho!, 82, 1)).toBe('M');
    expect(at(sipho!, 117, 26).trimEnd()).toBe('Dlamini');
    expect(at(sipho!, 169, 26).trimEnd()).toBe('Themba');
    expect(at(sipho!, 205, 8)).toBe('19900104');
    expect(at(sipho!, 521, 20).trimEnd()).toBe('0114561234');
    expect(at(sipho!, 541, 20).trimEnd()).toBe('0821234567');
    expect(at(sipho!, 581, 50).trimEnd()).toBe('sipho.dlamini@example.co.za');
    expect(at(sipho!, 631, 2)).toBe('7 ');
    expect(at(sipho!, 653, 3)).toBe('Yes');
    expect(at(sipho!, 656, 8)).toBe('20260115');
    expect(at(sipho!, 664, 8)).toBe('20260601');
    expect(at(zoe!, 143, 26).trimEnd()).toBe('Zoe');
    expect(at(zoe!, 117, 26).trimEnd()).toBe("O'Neil-Botha");
    expect(at(zoe!, 82, 1)).toBe('F');
    expect(at(zoe!, 363, 50).trimEnd()).toBe('12 Vilakazi Street');
    expect(at(zoe!, 517, 4)).toBe('1804');
    expect(at(zoe!, 581, 50).trim()).toBe('');
    expect(at(tendai!, 21, 15).trim()).toBe('');
    expect(at(tendai!, 36, 20).trimEnd()).toBe('FN123456');
    expect(at(tendai!, 56, 3)).toBe('527');
    expect(at(tendai!, 69, 3)).toBe('ZIM');
    expect(at(amani!, 56, 3)).toBe('565');
  });

  it('QCTO02: one row per learner per module, C -> 02, NYC -> 03, no result -> 01, withdrawn -> 04', () => {
    const rows = q2
      .toString('latin1')
      .split('\r\n')
      .filter(Boolean)
      .map((r) => ({
        id: (at(r, 61, 15) + at(r, 76, 20)).trim(),
        module: at(r, 119, 20).trim(),
        status: at(r, 139, 3),
        type: at(r, 145, 3),
        achieved: at(r, 148, 8),
        employment: at(r, 142, 3),
        linked: at(r, 172, 2),
      }));
    const of = (id: string) => rows.filter((r) => r.id === id).map((r) => r.status);
    expect(of('9001049818080')).toEqual(['02 ', '03 ', '01 ']);
    expect(of('FN123456')).toEqual(['02 ', '02 ', '01 ']);
    expect(of('9202295029188')).toEqual(['02 ', '04 ', '04 ']);
    expect(rows.find((r) => r.id === 'FN123456')).toMatchObject({
      achieved: '20260320',
      type: '01 ',
      employment: '03 ',
    });
    expect(rows.find((r) => r.id === '7311190013080')).toMatchObject({ employment: '02 ', linked: 'N ' });
    const first = q2.toString('latin1').split('\r\n')[0]!;
    expect(at(first, 1, 20).trimEnd()).toBe('AQP-0099');
    expect(at(first, 41, 20).trimEnd()).toBe('AC-7788');
    expect(at(first, 96, 20).trimEnd()).toBe('118707');
    expect(at(first, 116, 3)).toBe('4  ');
    expect(at(first, 156, 8)).toBe('20260201');
    expect(at(first, 164, 8)).toBe('20261130');
  });

  it('leaves out the four learners with findings, naming each field and reason', () => {
    const brief = findings.map((f) => `${f.learnerId} ${f.field} ${f.reason}`);
    expect(brief).toEqual([
      'lrn_golden07 equityCode missing',
      'lrn_golden07 homeAddress.line1 missing',
      'lrn_golden07 homeAddress.postalCode missing',
      'lrn_golden07 postalAddress.postalCode missing',
      'lrn_golden08 disabilityRating required_with_disability',
      'lrn_golden08 homeLanguageCode invalid_code',
      'lrn_golden09 gender gender_mismatch',
      'lrn_golden10 popiActAgree missing',
      'lrn_golden10 firstName invalid_characters',
    ]);
  });

  it('the file name is QCTO01- + the SDP code padded to 20 + the date + .txt', () => {
    expect(qctoFileName('QCTO01', 'SDP0012345', GOLDEN_DATE)).toBe('QCTO01-SDP0012345          20260601.txt');
    expect(qctoFileName('QCTO02', 'SDP0012345', GOLDEN_DATE)).toBe('QCTO02-SDP0012345          20260601.txt');
  });
});
