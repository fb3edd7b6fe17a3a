import { newId } from '@fundi/domain';
import type { LearnerSnapshot } from '@fundi/domain/learners';
import { LogbookEntry, type LogbookEntrySnapshot, type LogbookInput } from '@fundi/domain/logbooks';
import { locateEnrolment } from '../assessments/locate-enrolment.js';
import {
  cellErrors,
  findLearner,
  unknownLearner,
  type CellError,
  type Cells,
  type Checked,
  type ImportColumn,
  type ImportKind,
  type ImportKindRepos,
  type LearnerRef,
} from '../imports/import-kind.js';
import { dateCell, digitsCell } from '../imports/cell-values.js';

export const LOGBOOK_IMPORT_COLUMNS: readonly ImportColumn[] = [
  { name: 'id_number', required: false, example: '9202204720083', cell: digitsCell(true) },
  { name: 'learner_id', required: false, example: '' },
  { name: 'alternate_id', required: false, example: '' },
  { name: 'alternate_id_type', required: false, example: '' },
  { name: 'module_code', required: true, example: 'WM-01' },
  { name: 'date', required: true, example: '2026-03-02', aliases: ['day', 'work date'], cell: dateCell },
  { name: 'hours', required: true, example: '8', aliases: ['hours worked', 'time'] },
  {
    name: 'activity',
    required: true,
    example: 'Installed conduit on the second floor',
    aliases: ['task', 'work done'],
  },
  { name: 'workplace', required: true, example: 'Ubuntu Electrical', aliases: ['employer', 'company', 'site'] },
  { name: 'supervisor_name', required: true, example: 'Sipho Khumalo', aliases: ['supervisor'] },
  { name: 'supervisor_email', required: false, example: 'sipho@ubuntu-electrical.example' },
  { name: 'supervisor_mobile', required: false, example: '' },
  { name: 'enrolment_id', required: false, example: '' },
];

/** The entry's fields as the API names them, to the columns of this file. */
const COLUMN_OF: Record<string, string> = {
  date: 'date',
  hours: 'hours',
  activity: 'activity',
  workplace: 'workplace',
  supervisor: 'supervisor_name',
  'supervisor.name': 'supervisor_name',
  'supervisor.email': 'supervisor_email',
  'supervisor.mobile': 'supervisor_mobile',
  moduleCode: 'module_code',
  enrolmentId: 'enrolment_id',
};
const columnOf = (f: string) => COLUMN_OF[f] ?? f;

/** Whom a row names: an ID number or learner id (`findLearner`), or an alternative ID with its type. */
type RowLearnerRef = LearnerRef | { column: 'alternate_id'; value: string };

interface LogbookRow {
  ref: RowLearnerRef;
  moduleCode: string;
  enrolmentId: string | undefined;
  input: LogbookInput;
}

/** "8", "7.5" or "7,5" hours: a number for the domain's rule (quarters of an hour, above 0, at most 24). */
function hoursOf(v: string | undefined): unknown {
  if (v === undefined) return undefined;
  const n = Number(v.trim().replace(',', '.'));
  return v.trim() === '' || Number.isNaN(n) ? v : n;
}

function refOf(cells: Cells): Checked<RowLearnerRef> {
  if (cells.id_number !== undefined) return { ok: { column: 'id_number', value: cells.id_number } };
  if (cells.learner_id !== undefined) return { ok: { column: 'learner_id', value: cells.learner_id } };
  if (cells.alternate_id !== undefined) {
    if (cells.alternate_id_type === undefined)
      return { errors: [{ column: 'alternate_id_type', error: 'is required with alternate_id' }] };
    return { ok: { column: 'alternate_id', value: `${cells.alternate_id_type}:${cells.alternate_id}` } };
  }
  return { errors: [{ column: 'id_number', error: 'is required (or learner_id, or alternate_id)' }] };
}

async function learnerOf(repos: ImportKindRepos, tenantId: string, ref: RowLearnerRef) {
  if (ref.column !== 'alternate_id') return findLearner(repos, tenantId, ref);
  const taken = await repos.learners.findTaken(tenantId, [], [], [ref.value]);
  const id = taken.alternates.get(ref.value);
  return id ? repos.learners.findById(tenantId, id) : null;
}

/** What makes two entries the same day's work: the learner, the module, the date and the activity (any case). */
const sameWork = (learnerId: string, moduleCode: string, date: string, activity: string) =>
  `${learnerId}\u0000${moduleCode}\u0000${date}\u0000${activity.trim().toLowerCase().replace(/\s+/g, ' ')}`;

/**
 * Logbook entries (docs/api.md, "Imports", "Logbook entries"): every rule of `POST /logbook-entries`: the module
 * is a workplace module of a programme the learner has an open enrolment in, the hours in quarters up to 24, a
 * supervisor with an email or a mobile number. Entries are written as drafts, to be submitted for sign-off as any
 * other (an import never signs for a supervisor); an entry the tenant has already (same learner, module, date and
 * activity) is refused, so importing a file twice writes its entries once.
 */
export function logbookImport(): ImportKind<LogbookRow, LogbookEntrySnapshot> {
  const learners = new Map<string, Promise<LearnerSnapshot | null>>();
  const existing = new Map<string, Promise<Set<string>>>();
  return {
    type: 'logbook',
    columns: LOGBOOK_IMPORT_COLUMNS,
    anyOf: [['id_number', 'learner_id', 'alternate_id']],
    parse(cells, now) {
      const errors: CellError[] = [];
      const ref = refOf(cells);
      if ('errors' in ref) errors.push(...ref.errors);
      if (!cells.module_code) errors.push({ column: 'module_code', error: 'is required' });
      const input: LogbookInput = {
        date: cells.date,
        hours: hoursOf(cells.hours),
        activity: cells.activity,
        workplace: cells.workplace,
        supervisor: {
          name: cells.supervisor_name,
          email: cells.supervisor_email ?? null,
          mobile: cells.supervisor_mobile ?? null,
        },
      };
      try {
        const ctx = { id: '', tenantId: '', learnerId: '', enrolmentId: '', moduleCode: '', actor: '', now };
        LogbookEntry.create(input, ctx);
      } catch (e) {
        errors.push(...cellErrors(e, columnOf));
      }
      if (errors.length || 'errors' in ref) return { errors };
      return { ok: { ref: ref.ok, moduleCode: cells.module_code!, enrolmentId: cells.enrolment_id, input } };
    },
    uniqueKeys: () => [],
    async resolve(repos, actor, r, now) {
      const lk = `${r.ref.column}\u0000${r.ref.value}`;
      let found = learners.get(lk);
      if (!found) learners.set(lk, (found = learnerOf(repos, actor.tenantId, r.ref)));
      const learner = await found;
      if (!learner) {
        if (r.ref.column === 'alternate_id')
          return { errors: [{ column: 'alternate_id', error: 'names no learner of this organisation' }] };
        return { errors: [unknownLearner(r.ref)] };
      }
      let place: Awaited<ReturnType<typeof locateEnrolment>>;
      try {
        place = await locateEnrolment(repos, actor.tenantId, learner.id, r.moduleCode, r.enrolmentId);
      } catch (e) {
        return { errors: cellErrors(e, columnOf) };
      }
      const module = place.programme.modules.find((m) => m.code === r.moduleCode);
      if (module?.kind !== 'workplace')
        return {
          errors: [{ column: 'module_code', error: 'must be a workplace module: logbooks record workplace hours' }],
        };
      // The id is given in row order on write (rows are resolved concurrently).
      const entry = LogbookEntry.create(r.input, {
        id: '',
        tenantId: actor.tenantId,
        learnerId: learner.id,
        enrolmentId: place.enrolment.id,
        moduleCode: module.code,
        actor: actor.id,
        now,
      });
      let known = existing.get(learner.id);
      if (!known)
        existing.set(
          learner.id,
          (known = repos.logbookEntries
            .listForLearner(actor.tenantId, learner.id)
            .then((es) => new Set(es.map((e) => sameWork(e.learnerId, e.moduleCode, e.date, e.activity))))),
        );
      if ((await known).has(sameWork(entry.learnerId, entry.moduleCode, entry.date, entry.activity)))
        return {
          errors: [
            { column: 'activity', error: 'this learner has an entry for this module, date and activity already' },
          ],
        };
      return { ok: entry };
    },
    resolvedKeys: (e) => [
      {
        column: 'activity',
        key: sameWork(e.learnerId, e.moduleCode, e.date, e.activity),
        what: 'entry (learner, module, date and activity)',
      },
    ],
    async write(tx, _actor, now, rows) {
      for (const e of rows) await tx.logbookEntries.insert({ ...e, id: newId('lbe', now.getTime()) });
      return [];
    },
  };
}
