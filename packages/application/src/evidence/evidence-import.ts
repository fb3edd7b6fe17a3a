import { DomainError, newId } from '@fundi/domain';
import {
  EVIDENCE_TYPES,
  Evidence,
  foldFilename,
  parseDescription,
  parseEvidenceType,
  parseFilename,
  type EvidenceRepos,
  type EvidenceType,
} from '@fundi/domain/evidence';
import { locateEnrolment } from '../assessments/locate-enrolment.js';
import {
  cellErrors,
  findLearner,
  learnerRefOf,
  unknownLearner,
  type CellError,
  type Checked,
  type ImportColumn,
  type ImportKindRepos,
  type ImportKind,
  type LearnerRef,
} from '../imports/import-kind.js';
import { digitsCell } from '../imports/cell-values.js';

/** What the evidence import reads and writes: every kind's repositories and the evidence. */
type EvidenceImportRepos = ImportKindRepos & Pick<EvidenceRepos, 'evidence'>;

export const EVIDENCE_IMPORT_COLUMNS: readonly ImportColumn[] = [
  { name: 'id_number', required: false, example: '9202204720083', cell: digitsCell(true) },
  { name: 'learner_id', required: false, example: '' },
  { name: 'module_code', required: true, example: 'KM-01' },
  {
    name: 'evidence_type',
    required: true,
    example: 'portfolio',
    aliases: ['evidence', 'document type'],
    codes: Object.fromEntries(EVIDENCE_TYPES.map((t) => [t, t[0]!.toUpperCase() + t.slice(1).replace(/_/g, ' ')])),
  },
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

/** Lookups already made in this batch, by what they looked up. */
type Memo = Map<string, Promise<unknown>>;

function once<T>(memo: Memo, key: string, look: () => Promise<T>): Promise<T> {
  let p = memo.get(key) as Promise<T> | undefined;
  if (!p) memo.set(key, (p = look()));
  return p;
}

/** The learner, then the enrolment as `POST /evidence/upload` finds it (`locateEnrolment`), its errors as cells. */
async function resolveRow(
  repos: ImportKindRepos,
  tenantId: string,
  r: EvidenceRow,
  memo: Memo,
): Promise<Checked<ResolvedEvidence>> {
  const learner = await once(memo, `l\u0000${r.ref.column}\u0000${r.ref.value}`, () =>
    findLearner(repos, tenantId, r.ref),
  );
  if (!learner) return { errors: [unknownLearner(r.ref)] };
  const place = await once(memo, `e\u0000${learner.id}\u0000${r.moduleCode}\u0000${r.enrolmentId ?? ''}`, () =>
    locateEnrolment(repos, tenantId, learner.id, r.moduleCode, r.enrolmentId).then(
      (found) => ({ enrolmentId: found.enrolment.id }),
      (e: unknown) => ({ errors: cellErrors(e, (f) => COLUMN_OF[f] ?? f) }),
    ),
  );
  if ('errors' in place) return { errors: place.errors };
  return {
    ok: {
      learnerId: learner.id,
      enrolmentId: place.enrolmentId,
      moduleId: r.moduleCode,
      evidenceType: r.evidenceType,
      filename: r.filename,
      description: r.description,
    },
  };
}

const fileKey = (e: { learnerId: string; moduleId: string; filename: string }) =>
  `${e.learnerId}\u0000${e.moduleId}\u0000${foldFilename(e.filename)}`;

/**
 * Rows naming evidence the tenant has already (the same learner, module and file name, case-insensitively; any
 * status, records awaiting their file too; deleted evidence does not count): one query for all the rows.
 */
async function refuseExisting(
  repos: EvidenceImportRepos,
  tenantId: string,
  rows: Checked<ResolvedEvidence>[],
): Promise<Checked<ResolvedEvidence>[]> {
  const keys = rows.flatMap((c) => ('ok' in c ? [c.ok] : []));
  if (!keys.length) return rows;
  const existing = new Map<string, string>();
  for (const e of await repos.evidence.findByFileNames(tenantId, keys)) {
    const k = fileKey({ learnerId: e.learnerId, moduleId: e.moduleId, filename: e.current.filename });
    if (!existing.has(k)) existing.set(k, e.id);
  }
  return rows.map((c) => {
    const id = 'ok' in c ? existing.get(fileKey(c.ok)) : undefined;
    return id
      ? {
          errors: [
            {
              column: 'filename',
              error: `evidence with this file name exists already for this learner and module (${id})`,
            },
          ],
        }
      : c;
  });
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
export function evidenceImport(): ImportKind<EvidenceRow, ResolvedEvidence, EvidenceImportRepos> {
  return {
    type: 'evidence',
    columns: EVIDENCE_IMPORT_COLUMNS,
    tables: ['evidence'],
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
    resolvedKeys: (e) => [{ column: 'filename', key: fileKey(e), what: 'learner, module and file name' }],
    async resolve(repos, actor, r) {
      return (await refuseExisting(repos, actor.tenantId, [await resolveRow(repos, actor.tenantId, r, new Map())]))[0]!;
    },
    // One batch's rows often name the same learner and module many times (a portfolio per module): each lookup is
    // made once per batch, so the answers are those of the moment the batch is checked, as row by row. Evidence
    // there already is looked up once for the whole batch.
    async resolveMany(repos, actor, vs) {
      const memo: Memo = new Map();
      const out: Checked<ResolvedEvidence>[] = [];
      for (let i = 0; i < vs.length; i += 16)
        out.push(...(await Promise.all(vs.slice(i, i + 16).map((v) => resolveRow(repos, actor.tenantId, v, memo)))));
      return refuseExisting(repos, actor.tenantId, out);
    },
    // No event per row: subscribers hear of the evidence when its file arrives (`evidence.uploaded`).
    async write(tx, actor, now, rows) {
      // Another import of the tenant may have written some of these names since the batch was checked. Checked
      // again here, in the writing transaction and under the tenant's lock of file names (one writer at a time gets
      // past this point), a name found is a conflict: the confirm checks the batch again and reports those rows.
      await tx.evidence.lockFileNames(actor.tenantId);
      const taken = await tx.evidence.findByFileNames(actor.tenantId, rows);
      if (taken.length)
        throw new DomainError(
          'conflict',
          'evidence_exists',
          `${taken.length} of the batch's file names were written by another import meanwhile`,
        );
      for (const w of rows) {
        const id = newId('evd', now.getTime());
        await tx.evidence.insert(Evidence.awaiting({ ...w, id, tenantId: actor.tenantId, createdBy: actor.id, now }));
      }
      return [];
    },
  };
}
