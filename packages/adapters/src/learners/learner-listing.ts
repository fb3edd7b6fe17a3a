import type { Page, PageRequest } from '@fundi/domain';
import {
  learnerSearch,
  type EnrolledFilter,
  type LearnerFilter,
  type LearnerOrder,
  type LearnerSnapshot,
} from '@fundi/domain/learners';
import type { Knex } from 'knex';
import type { SqlDb } from '../db/sql-db.js';
import { compile } from '../db/query-builder.js';
import { pageQuery, type PageOrder } from '../db/paging.js';
import { LEARNER_READER, learnerOf, learnerSelect } from './learner-rows.js';
import { LEARNER_SEARCH_TEXT } from './learner-search-text.js';

/**
 * A page of a tenant's live learners: filtered (employer, ids, enrolments, dates, search words or a mobile number)
 * and sorted by a learner's own field or by one of their enrolments', in one statement with its count.
 */

/** `text` for LIKE as itself, its own `%`, `_` and backslash escaped. */
const likeExactly = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
/** `%text%` for LIKE: `text` anywhere. */
const likeAny = (text: string) => `%${likeExactly(text)}%`;

/** The columns a learner's snapshot reads, written once (knex would quote each of them again for every list). */
const LEARNERS_SELECT = learnerSelect('learners');
const ROWS_SELECT = learnerSelect('l');

/** The enrolment columns a learner list sorts by (`LearnerOrder`). */
const ENROLMENT_KEYS = { programme: 'programme_code', status: 'status', start: 'start_date' } as const;

/** `LearnerFilter.enrolled` as conditions on enrolments `e` (each beginning with AND), with their bindings. */
function enrolledWhere(f: EnrolledFilter): { sql: string; bindings: string[] } {
  const parts: [string, string | undefined][] = [
    ['e.programme_code = ?', f.programmeCode],
    ['e.status = ?', f.status],
    ['e.start_date >= ?', f.startFrom],
    ['e.start_date <= ?', f.startTo],
  ];
  const kept = parts.filter((p): p is [string, string] => p[1] !== undefined);
  return { sql: kept.map(([c]) => ` AND ${c}`).join(''), bindings: kept.map(([, v]) => v) };
}

export function listLearners(
  db: SqlDb,
  qb: Knex,
  tenantId: string,
  filter: LearnerFilter,
  page: PageRequest,
  order?: LearnerOrder,
): Promise<Page<LearnerSnapshot>> {
  const filtered = filteredLearners(db, qb, tenantId, filter);
  const q = filtered.clone().select(qb.raw(LEARNERS_SELECT));
  const sorted = order && page.kind === 'offset' ? order : undefined;
  const dir = sorted?.descending ? 'desc' : 'asc';
  const enrolmentKey = sorted && ENROLMENT_KEYS[sorted.by as keyof typeof ENROLMENT_KEYS];
  if (enrolmentKey) {
    // Each learner's first value in the sort's direction, of the enrolments the filter keeps: one grouped pass over
    // the tenant's enrolments, joined by learner, in the same statement as the page. (A subquery per learner let
    // SQLite walk the tenant's whole (tenant, status, start, ...) index for each MIN.)
    const { sql, bindings } = enrolledWhere(filter.enrolled ?? {});
    q.joinRaw(
      `LEFT JOIN (SELECT e.learner_id, ${sorted.descending ? 'MAX' : 'MIN'}(e.${enrolmentKey}) AS sort_key FROM enrolments e WHERE e.tenant_id = ?${sql} GROUP BY e.learner_id) s ON s.learner_id = learners.id`,
      [tenantId, ...bindings],
    ).select('s.sort_key');
  }
  // Learners without the field come last either way; ties (and pages) are kept stable by id. The sort is carried
  // into the one statement's outer query, so a sorted page is one statement too.
  const sort: PageOrder | undefined = !sorted
    ? undefined
    : enrolmentKey
      ? (c) => `${c('sort_key')} ${dir} NULLS LAST`
      : sorted.by === 'name'
        ? (c) => `lower(${c('last_name')}) ${dir}, lower(${c('first_name')}) ${dir}`
        : (c) => `${c('id_number')} IS NULL, ${c('id_number')} ${dir}`;
  // A search by words reads every learner of the tenant: the page and its count are one pass over them.
  const words = filter.search !== undefined && learnerSearch(filter.search).mobile === null;
  const scan = words || filter.employer !== undefined;
  if (enrolmentKey && sort && page.kind === 'offset' && !scan) return keysFirst(db, q, filtered, page, sort);
  // The count is of the filtered learners alone: the sort's join keeps one row per learner, so counting it only
  // adds its grouped pass over the enrolments.
  return pageQuery(db, q, page, LEARNER_READER, 'id', scan ? 'scan' : true, sort, filtered);
}

/**
 * A page sorted by an enrolment column over every learner the filter keeps, in one statement with its count: the
 * sort orders each learner's id and sort key alone, then the page's learners are read whole by id. Sorting whole
 * rows carried every learner's columns through the join and the sort (docs/performance.md, "Learner search").
 */
async function keysFirst(
  db: SqlDb,
  q: Knex.QueryBuilder,
  filtered: Knex.QueryBuilder,
  page: { offset: number; limit: number },
  sort: PageOrder,
): Promise<Page<LearnerSnapshot>> {
  const keys = q.clone().clearSelect().select('learners.id as key_id', 's.sort_key');
  keys
    .orderByRaw(sort((c) => c))
    .orderBy('learners.id', 'asc')
    .limit(page.limit + 1);
  if (page.offset > 0) keys.offset(page.offset);
  const count = compile(filtered.clone().clearSelect().clearOrder().count({ n: '*' }));
  const k = compile(keys);
  // Each row is the learner's columns (`learnerOf`), then its key and the count.
  const rows = await db.allArrays(
    `SELECT ${ROWS_SELECT}, k.key_id, c.n AS __total FROM (${count.sql}) c LEFT JOIN (${k.sql}) k ON true
      LEFT JOIN learners l ON l.id = k.key_id ORDER BY ${sort((c) => `k.${c}`)}, k.key_id`,
    [...count.bindings, ...k.bindings],
  );
  const first = rows[0];
  // No learner matched: the one row is the count's, its key null.
  const found = first?.[first.length - 2] == null ? [] : rows;
  return {
    items: found.slice(0, page.limit).map((r) => learnerOf(r)),
    total: Number(first?.[first.length - 1] ?? 0),
    hasMore: found.length > page.limit,
  };
}

/** The tenant's live learners the filter keeps, as a query to select from and to count. */
function filteredLearners(db: SqlDb, qb: Knex, tenantId: string, filter: LearnerFilter): Knex.QueryBuilder {
  const q = qb('learners').where('tenant_id', tenantId).whereNull('erased_at');
  if (filter.employeeRef) q.where('employee_ref', filter.employeeRef);
  // Any case: the dialect's case-insensitive LIKE, with no function call per row (docs/performance.md).
  const ilike = db.dialect.ilike;
  if (filter.employer) q.whereRaw(`employer ${ilike} ? escape '\\'`, [likeAny(filter.employer.toLowerCase())]);
  if (filter.ids) {
    const among = db.dialect.inTexts(filter.ids);
    q.whereRaw(
      `id ${among.sql}`,
      among.bindings.map((b) => b ?? null),
    );
  }
  if (filter.enrolled) {
    const { sql, bindings } = enrolledWhere(filter.enrolled);
    q.whereRaw(`id IN (SELECT e.learner_id FROM enrolments e WHERE e.tenant_id = ?${sql})`, [tenantId, ...bindings]);
  }
  if (filter.createdFrom) q.where('created_at', '>=', filter.createdFrom);
  if (filter.createdTo) q.where('created_at', '<=', filter.createdTo);
  if (filter.updatedFrom) q.where('updated_at', '>=', filter.updatedFrom);
  if (filter.updatedTo) q.where('updated_at', '<=', filter.updatedTo);
  if (filter.search) {
    const { words, mobile } = learnerSearch(filter.search);
    if (mobile) q.where('mobile', mobile);
    // Every word matches some field (names in any order); `learnerSearch` in the domain says which.
    for (const word of words) {
      const like = likeAny(word);
      // Implied by each field condition below, and written where an index can answer it (Postgres' trigram
      // index; docs/performance.md, "Learner search").
      if (db.dialect.indexedContains) q.whereRaw(`(${LEARNER_SEARCH_TEXT}) ${ilike} ? escape '\\'`, [like]);
      q.where((w) => {
        for (const c of ['first_name', 'last_name', 'middle_name', 'email_lower'])
          w.orWhereRaw(`${c} ${ilike} ? escape '\\'`, [like]);
        w.orWhereRaw(`employee_ref ${ilike} ? escape '\\'`, [likeExactly(word)]);
        if (/^\d+$/.test(word)) w.orWhere('id_number', 'like', `${word}%`);
        if (/^[a-z0-9/-]+$/.test(word)) w.orWhere('alternate_id', 'like', `${word.toUpperCase()}%`);
      });
    }
  }
  return q;
}
