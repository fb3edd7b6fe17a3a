import { newId } from '@fundi/domain';
import { Enrolment, type EnrolmentSnapshot, type ProgrammeSnapshot, type StatusChange } from '@fundi/domain/training';
import {
  cellErrors,
  findLearner,
  learnerRefOf,
  unknownLearner,
  type CellError,
  type ImportColumn,
  type ImportKind,
  type LearnerRef,
} from '../imports/import-kind.js';
import { dateCell, digitsCell } from '../imports/cell-values.js';
import type { Actor } from '../common/actor.js';

export const ENROLMENT_IMPORT_COLUMNS: readonly ImportColumn[] = [
  { name: 'id_number', required: false, example: '9202204720083', cell: digitsCell(true) },
  { name: 'learner_id', required: false, example: '' },
  { name: 'programme_code', required: true, example: 'OC-PLUMB-4' },
  { name: 'start_date', required: true, example: '2026-02-01', cell: dateCell, date: true },
  {
    name: 'expected_completion_date',
    required: false,
    example: '2027-01-31',
    cell: dateCell,
    date: true,
    aliases: ['expected_end', 'expected_end_date'],
  },
  { name: 'funding_source', required: false, example: 'MERSETA' },
  {
    name: 'status',
    required: false,
    example: 'enrolled',
    codes: { enrolled: 'Enrolled (the default)', in_progress: 'In progress' },
  },
];

const IMPORTABLE = ['enrolled', 'in_progress'] as const;
const COLUMN_OF: Record<string, string> = {
  startDate: 'start_date',
  expectedEndDate: 'expected_completion_date',
  fundingSource: 'funding_source',
};

interface EnrolmentRow {
  ref: LearnerRef;
  programmeCode: string;
  input: { startDate: string; expectedEndDate?: string; fundingSource?: string };
  status: (typeof IMPORTABLE)[number];
}

interface ResolvedEnrolment {
  enrolment: EnrolmentSnapshot;
  history: StatusChange[];
}

const change = (actor: Actor, e: EnrolmentSnapshot, from: StatusChange['from'], at: string): StatusChange => ({
  id: newId('esh'),
  tenantId: actor.tenantId,
  enrolmentId: e.id,
  from,
  to: from === null ? 'enrolled' : e.status,
  reason: from === null ? null : 'imported',
  effectiveDate: e.startDate,
  changedBy: actor.id,
  changedAt: at,
});

/** Enrolments: every rule of `POST /enrolments`; `status` may start an enrolment `in_progress`. */
export function enrolmentImport(): ImportKind<EnrolmentRow, ResolvedEnrolment> {
  const programmes = new Map<string, ProgrammeSnapshot | null>();
  return {
    type: 'enrolments',
    columns: ENROLMENT_IMPORT_COLUMNS,
    tables: ['enrolments'],
    anyOf: [['id_number', 'learner_id']],
    parse(cells, now) {
      const errors: CellError[] = [];
      const ref = learnerRefOf(cells);
      if ('errors' in ref) errors.push(...ref.errors);
      const input = {
        startDate: cells.start_date!,
        ...(cells.expected_completion_date ? { expectedEndDate: cells.expected_completion_date } : {}),
        ...(cells.funding_source ? { fundingSource: cells.funding_source } : {}),
      };
      try {
        const ids = { id: '', tenantId: '', learnerId: '', programmeId: '', programmeCode: '' };
        Enrolment.enrol(input, { ...ids, now });
      } catch (e) {
        errors.push(...cellErrors(e, (f) => COLUMN_OF[f] ?? f));
      }
      if (!cells.programme_code) errors.push({ column: 'programme_code', error: 'is required' });
      const status = (cells.status ?? 'enrolled') as EnrolmentRow['status'];
      if (!IMPORTABLE.includes(status))
        errors.push({ column: 'status', error: `must be ${IMPORTABLE.join(' or ')} (later moves go through the API)` });
      if (errors.length || 'errors' in ref) return { errors };
      return { ok: { ref: ref.ok, programmeCode: cells.programme_code!, input, status } };
    },
    uniqueKeys: (r) => [
      {
        column: 'programme_code',
        key: `${r.ref.value.toLowerCase()}|${r.programmeCode}`,
        what: 'enrolment of this learner in this programme',
      },
    ],
    async resolve(repos, actor, r, now) {
      const learner = await findLearner(repos, actor.tenantId, r.ref);
      if (!programmes.has(r.programmeCode))
        programmes.set(r.programmeCode, await repos.programmes.findByCode(actor.tenantId, r.programmeCode));
      const programme = programmes.get(r.programmeCode)!;
      const errors: CellError[] = [];
      if (!learner) errors.push(unknownLearner(r.ref));
      if (!programme) errors.push({ column: 'programme_code', error: `no programme ${r.programmeCode}` });
      else if (programme.status === 'retired')
        errors.push({ column: 'programme_code', error: `${programme.code} is retired and takes no new enrolments` });
      if (errors.length || !learner || !programme) return { errors };
      const open = await repos.enrolments.openForLearner(actor.tenantId, learner.id);
      if (open.some((e) => e.programmeId === programme.id))
        return {
          errors: [{ column: 'programme_code', error: `the learner has an open enrolment in ${programme.code}` }],
        };
      const e = Enrolment.enrol(r.input, {
        id: newId('enr', now.getTime()),
        tenantId: actor.tenantId,
        learnerId: learner.id,
        programmeId: programme.id,
        programmeCode: programme.code,
        now,
      });
      const at = now.toISOString();
      const history = [change(actor, e.toSnapshot(), null, at)];
      if (r.status === 'in_progress') {
        e.moveTo('in_progress', { reason: 'imported' }, { now });
        history.push(change(actor, e.toSnapshot(), 'enrolled', at));
      }
      return { ok: { enrolment: e.toSnapshot(), history } };
    },
    resolvedKeys: (r) => [
      {
        column: 'programme_code',
        key: `${r.enrolment.learnerId}|${r.enrolment.programmeId}`,
        what: 'learner and programme',
      },
    ],
    async write(tx, _actor, _now, rows) {
      for (const r of rows) {
        await tx.enrolments.insert(r.enrolment);
        for (const h of r.history) await tx.enrolments.addStatusChange(h);
      }
      return [];
    },
  };
}
