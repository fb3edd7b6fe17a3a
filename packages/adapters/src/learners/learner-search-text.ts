/**
 * A learner's searched fields as one text, each separated by a space: the expression the Postgres trigram index
 * `learners_search_trgm` is built on and the learner search writes a condition on, word by word
 * (docs/performance.md, "Learner search"). A search word holds no space (`learnerSearch` splits on spaces), so a
 * word found in this text lies within one field: every field condition of a word implies `text ILIKE '%word%'`,
 * which the index answers (written where the dialect's `indexedContains` says an index can), and the search keeps
 * its field conditions to decide.
 */
export const LEARNER_SEARCH_TEXT = [
  'first_name',
  'last_name',
  'middle_name',
  'email_lower',
  'employee_ref',
  'id_number',
  'alternate_id',
]
  .map((c) => `coalesce(${c}, '')`)
  .join(" || ' ' || ");
