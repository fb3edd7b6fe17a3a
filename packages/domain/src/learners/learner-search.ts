/**
 * How a learner search is read (docs/api.md, "Learners"): a South African mobile number in any form (`082 123 4567`,
 * `+27 82 123 4567`, `27821234567`) finds the learner with that mobile; anything else is split into words (at most
 * five), and a learner matches when every word is found in one of their name parts, their email, the start of
 * their ID number or alternative ID, or is their employee reference. So "Thandi Nkosi" and "nkosi thandi" both find
 * Thandi Nkosi.
 */
export interface LearnerSearch {
  /** Lower-case words, each of which must match. */
  words: string[];
  /** The mobile number in the stored form (`+27` and 9 digits), when the search is one. */
  mobile: string | null;
}

export function learnerSearch(search: string): LearnerSearch {
  const compact = search.replace(/[\s()-]/g, '');
  const m = /^(?:\+?27|0)([678]\d{8})$/.exec(compact);
  if (m) return { words: [], mobile: `+27${m[1]}` };
  return { words: search.toLowerCase().split(/\s+/).filter(Boolean).slice(0, 5), mobile: null };
}

/** Whether one word of a search matches a learner's fields (the rule of `learnerSearch`). */
export function wordMatches(
  word: string,
  l: {
    firstName: string;
    lastName: string;
    middleName?: string | null;
    email: string | null;
    idNumber: string | null;
    alternateId: string | null;
    employeeRef: string | null;
  },
): boolean {
  return (
    [l.firstName, l.lastName, l.middleName, l.email].some((v) => v?.toLowerCase().includes(word)) ||
    (/^\d+$/.test(word) && !!l.idNumber?.startsWith(word)) ||
    (/^[a-z0-9/-]+$/.test(word) && !!l.alternateId?.startsWith(word.toUpperCase())) ||
    l.employeeRef?.toLowerCase() === word
  );
}
