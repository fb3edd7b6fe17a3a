import { Evidence, newId, parseDescription, parseEvidenceType, parseFilename, type EvidenceType } from '@fundi/domain';
import { locateEnrolment } from '../assessments/locate-enrolment.js';
import {
  cellErrors,
  findLearner,
  learnerRefOf,
  unknownLearner,
  type CellError,
  type ImportColumn,
  type ImportKind,
  type LearnerRef,
} from './import-kind.js';

export const EVIDENCE_COLUMNS: readonly ImportColumn[] = [
  { name: 'id_number', required: false, example: '9202204720082' },
  { name: 'learner_id', required: false, example: '' },
  { name: 'module_code', required: true, example: 'KM-01' },
  { name: 'evidence_type', required: true, example: 'portfolio' },
  { name: 'filename', required: true, example: 'portfolio-km01.pdf' },
  { name: 'description', required: false, example: 'Knowledge module 1 portfolio of evidence' },
  { name: 'enrolment_id', required: false, example: '' },
];

const COLUMN_OF: Record<string, string> = { moduleCode: 'module_code', enrolmentId: 'enrolment_id' };

interface EvidenceRow {
  ref: LearnerRef;
  moduleCode: string;
  evidenceType: EvidenceType;
  filename: string;
  description: string | null;
  enrolmentId: string | undefined;
}

/** A row resolved against the tenant: what `Evidence.awaiting` needs but the id, given in row order on write. */
interface ResolvedEvidence {
  learnerId: string;
  enrolmentId: string;
  moduleId: string;
  evidenceType: EvidenceType;
  filename: string;
  description: string | null;
}

/** Runs one field parser, collecting its error under the row's column. */
function field<T>(errors: CellError[], column: string, parse: () => T): T | undefined {
  try {
    return parse();
  } catch (e) {
    errors.push(...cellErrors(e, () => column));
    return undefined;
  }
}

/**
 * Evidence records awaiting their file: the checks of `POST /evidence/upload` (a learner of the tenant, the module
 * of an open enrolment of theirs, or of `enrolment_id`; the evidence type; the file name as the API cleans it).
 * Each row becomes a record `awaiting_upload`; its file follows through `POST /evidence/{id}/upload`.
 */
export function evidenceImport(): ImportKind<EvidenceRow, ResolvedEvidence> {
  return {
    type: 'evidence',
    columns: EVIDENCE_COLUMNS,
    anyOf: [['id_number', 'learner_id']],
    parse(cells) {
      const errors: CellError[] = [];
      const ref = learnerRefOf(cells);
      if ('errors' in ref) errors.push(...ref.errors);
      if (!cells.module_code) errors.push({ column: 'module_code', error: 'is required (the module code)' });
      const evidenceType = field(errors, 'evidence_type', () => parseEvidenceType(cells.evidence_type));
      const filename = field(errors, 'filename', () => parseFilename(cells.filename));
      const description = field(errors, 'description', () => parseDescription(cells.description));
      if (errors.length || 'errors' in ref || !evidenceType || !filename || description === undefined)
        return { errors };
      return {
        ok: {
          ref: ref.ok,
          moduleCode: cells.module_code!,
          evidenceType,
          filename,
          description,
          enrolmentId: cells.enrolment_id,
        },
      };
    },
    uniqueKeys: () => [],
    resolvedKeys: (e) => [
      {
        column: 'filename',
        key: `${e.learnerId}\u0000${e.moduleId}\u0000${e.filename.toLowerCase()}`,
        what: 'learner, module and file name',
      },
    ],
    async resolve(repos, actor, r) {
      const learner = await findLearner(repos, actor.tenantId, r.ref);
      if (!learner) return { errors: [unknownLearner(r.ref)] };
      try {
        const { enrolment } = await locateEnrolment(repos, actor.tenantId, learner.id, r.moduleCode, r.enrolmentId);
        return {
          ok: {
            learnerId: learner.id,
            enrolmentId: enrolment.id,
            moduleId: r.moduleCode,
            evidenceType: r.evidenceType,
            filename: r.filename,
            description: r.description,
          },
        };
      } catch (e) {
        return { errors: cellErrors(e, (f) => COLUMN_OF[f] ?? f) };
      }
    },
    // No event per row: subscribers hear of the evidence when its file arrives (`evidence.uploaded`).
    async write(tx, actor, now, rows) {
      for (const w of rows) {
        const id = newId('evd', now.getTime());
        await tx.evidence.insert(Evidence.awaiting({ ...w, id, tenantId: actor.tenantId, createdBy: actor.id, now }));
      }
      return [];
    },
  };
}
