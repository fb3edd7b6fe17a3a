import { newId } from '@fundi/domain';
import { Assessment, Programme, type AssessmentSnapshot } from '@fundi/domain/training';
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
import { historyBefore } from '../imports/import-messages.js';

export const ASSESSMENT_IMPORT_COLUMNS: readonly ImportColumn[] = [
  { name: 'id_number', required: false, example: '9202204720083', cell: digitsCell(true) },
  { name: 'learner_id', required: false, example: '' },
  { name: 'programme_code', required: false, example: 'OC-PLUMB-4' },
  { name: 'module_code', required: true, example: 'KM-01' },
  {
    name: 'assessment_type',
    required: true,
    example: 'summative',
    codes: { formative: 'Formative', summative: 'Summative' },
  },
  { name: 'outcome', required: true, example: 'C', codes: { C: 'Competent', NYC: 'Not yet competent' } },
  { name: 'assessment_date', required: true, example: '2026-03-15', cell: dateCell, date: true },
  { name: 'assessor_email', required: false, example: 'assessor@example.co.za', aliases: ['assessor_id'] },
];

const COLUMN_OF: Record<string, string> = {
  assessmentType: 'assessment_type',
  assessmentDate: 'assessment_date',
  outcome: 'outcome',
  assessorId: 'assessor_email',
};

interface AssessmentRow {
  ref: LearnerRef;
  programmeCode: string | null;
  moduleCode: string;
  input: { assessmentType?: string; outcome?: string; assessmentDate?: string; assessorId?: string };
}

/**
 * Assessments: every rule of `POST /assessments`: the module belongs to a programme the learner has an open
 * enrolment in (`programme_code` chooses among several), the date is not in the future nor before the start.
 */
export function assessmentImport(): ImportKind<AssessmentRow, AssessmentSnapshot> {
  return {
    type: 'assessments',
    columns: ASSESSMENT_IMPORT_COLUMNS,
    tables: ['assessments'],
    anyOf: [['id_number', 'learner_id']],
    parse(cells, now) {
      const errors: CellError[] = [];
      const ref = learnerRefOf(cells);
      if ('errors' in ref) errors.push(...ref.errors);
      if (!cells.module_code) errors.push({ column: 'module_code', error: 'is required' });
      const input = {
        assessmentType: cells.assessment_type,
        outcome: cells.outcome,
        assessmentDate: cells.assessment_date,
        ...(cells.assessor_email ? { assessorId: cells.assessor_email } : {}),
      };
      try {
        const ids = { id: '', tenantId: '', learnerId: '', enrolmentId: '', programmeId: '', programmeCode: '' };
        Assessment.record(input, { ...ids, moduleCode: '', recordedBy: '', startDate: '0000-01-01', now });
      } catch (e) {
        errors.push(...cellErrors(e, (f) => COLUMN_OF[f] ?? f));
      }
      if (errors.length || 'errors' in ref) return { errors };
      return {
        ok: { ref: ref.ok, programmeCode: cells.programme_code ?? null, moduleCode: cells.module_code!, input },
      };
    },
    uniqueKeys: () => [],
    async resolve(repos, actor, r, now) {
      const learner = await findLearner(repos, actor.tenantId, r.ref);
      if (!learner) return { errors: [unknownLearner(r.ref)] };
      const open = await repos.enrolments.openForLearner(actor.tenantId, learner.id);
      const programmes = new Map(
        (await repos.programmes.findByIds(actor.tenantId, [...new Set(open.map((e) => e.programmeId))])).map((p) => [
          p.id,
          p,
        ]),
      );
      const found = open
        .map((e) => ({ e, p: programmes.get(e.programmeId) }))
        .find(
          ({ e, p }) =>
            p &&
            Programme.hasModule(p, r.moduleCode) &&
            (r.programmeCode === null || e.programmeCode === r.programmeCode),
        );
      if (!found?.p) {
        const where = r.programmeCode ? `${r.programmeCode}, ` : '';
        return {
          errors: [
            {
              column: 'module_code',
              error: `${r.moduleCode} is not a module of a programme (${where}open enrolment) of this learner`,
            },
          ],
        };
      }
      try {
        return {
          ok: Assessment.record(r.input, {
            id: newId('asm', now.getTime()),
            tenantId: actor.tenantId,
            learnerId: learner.id,
            enrolmentId: found.e.id,
            programmeId: found.p.id,
            programmeCode: found.p.code,
            moduleCode: r.moduleCode,
            recordedBy: actor.id,
            startDate: found.e.startDate,
            now,
          }),
        };
      } catch (e) {
        return { errors: cellErrors(e, (f) => COLUMN_OF[f] ?? f) };
      }
    },
    async messagesDue(repos, tenantId, a, history) {
      // The result message (the milestone WhatsApp message is not counted: docs/api.md, "Imports").
      if (a.assessmentDate < history) return [];
      const learner = await repos.learners.findById(tenantId, a.learnerId);
      return learner ? [{ template: 'assessment_result', learner }] : [];
    },
    async write(tx, _actor, now, rows) {
      const events = [];
      // History: an assessment dated before this never messages the learner, whatever `notify` says.
      const history = historyBefore(now);
      for (const a of rows) {
        await tx.assessments.insert(a);
        const data = {
          assessmentId: a.id,
          learnerId: a.learnerId,
          enrolmentId: a.enrolmentId,
          moduleCode: a.moduleCode,
          outcome: a.outcome,
          assessmentType: a.assessmentType,
          assessmentDate: a.assessmentDate,
          ...(a.assessmentDate < history ? { notify: 'none' } : {}),
        };
        events.push({ type: 'assessment.recorded', data }, { type: 'assessment.completed', data });
      }
      return events;
    },
  };
}
