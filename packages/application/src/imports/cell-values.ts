import {
  NLRD_CODES,
  NLRD_MEANINGS,
  NLRD_OTHER_NAMES,
  PROVINCE_ABBREVIATIONS,
  type NlrdField,
} from '@fundi/domain/learners';

/**
 * A cell as people write it, turned into the value the API takes (docs/api.md, "Imports", "Values as people write
 * them"), or what is wrong with it.
 */
export type CellRule = (v: string) => { ok: string } | { error: string };

/**
 * `rule` with its answers remembered for the first 256 distinct cells: coded columns hold a few values over and over,
 * and reading one costs two new strings (`looseKey`); the answers are never changed by their readers.
 */
function remembered(rule: CellRule): CellRule {
  const answers = new Map<string, ReturnType<CellRule>>();
  return (v) => {
    let a = answers.get(v);
    if (a === undefined) {
      a = rule(v);
      if (answers.size < 256) answers.set(v, a);
    }
    return a;
  };
}

/** Case, spaces and punctuation do not count: `KwaZulu-Natal` is `kwazulu natal`. */
export const looseKey = (v: string) => v.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

export const DATE_FORMS = 'yyyy-mm-dd, yyyy/mm/dd or dd/mm/yyyy';

/** `yyyy-mm-dd`, `yyyy/mm/dd`, `dd/mm/yyyy` (also with `-` or `.`), never `mm/dd`; a time of day is dropped. */
export const dateCell: CellRule = (raw) => {
  const v = raw.replace(/[ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?$/, '');
  let y: string | undefined;
  let m: string | undefined;
  let d: string | undefined;
  let match = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(v);
  if (match) [, y, m, d] = match;
  else if ((match = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/.exec(v))) [, d, m, y] = match;
  if (!y || !m || !d) return { error: `is not a date in a form taken: ${DATE_FORMS} (never mm/dd)` };
  if (Number(m) > 12)
    return {
      error: `is not a date: month ${Number(m)} does not exist (dates are read as ${DATE_FORMS}; mm/dd/yyyy is not taken)`,
    };
  const iso = `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`;
  const t = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(t.getTime()) || t.toISOString().slice(0, 10) !== iso) return { error: 'is not a real date' };
  return { ok: iso };
};

/** A number Excel showed in scientific notation (`9.20122E+12`): its digits are lost. */
const SCIENTIFIC = /^\d+(?:[.,]\d+)?E\+?\d+$/i;
const EXCEL_CHANGED =
  'was changed by Excel into a rounded number in scientific notation, and its digits are lost: in Excel, format the column as Text before typing or pasting the numbers (or start each with an apostrophe), or use the .xlsx template, whose number columns are text';

/** Number columns Excel may have rounded (ID numbers, cellphones): told apart from a mistyped number. */
export const digitsCell =
  (idNumber: boolean): CellRule =>
  (v) => {
    if (SCIENTIFIC.test(v)) return { error: EXCEL_CHANGED };
    if (idNumber && /^\d{12}$/.test(v))
      return {
        error:
          'has 12 digits, not 13: Excel may have dropped a leading 0 (format the column as Text in Excel, or use the .xlsx template)',
      };
    return { ok: v };
  };

const YES = new Set(['yes', 'y', 'true', '1', 'ja', 'yebo']);
const NO = new Set(['no', 'n', 'false', '0', 'nee', 'cha']);

const ANSWER_YES = { ok: 'yes' };
const ANSWER_NO = { ok: 'no' };

/** Yes/no words, as `yes` or `no`. */
export const yesNoCell: CellRule = remembered((v) => {
  const k = looseKey(v);
  if (YES.has(k)) return ANSWER_YES;
  if (NO.has(k)) return ANSWER_NO;
  return { error: 'must be yes or no (Yes, Y, True, 1 or No, N, False, 0)' };
});

const GENDERS: Record<string, string> = {
  m: 'M',
  male: 'M',
  man: 'M',
  f: 'F',
  female: 'F',
  woman: 'F',
  o: 'O',
  other: 'O',
  selfdescribed: 'O',
};

/** `M`, `F`, `O` or the words for them. */
const GENDER_ANSWERS: Record<string, { ok: string }> = { M: { ok: 'M' }, F: { ok: 'F' }, O: { ok: 'O' } };
export const genderCell: CellRule = remembered((v) => {
  const g = GENDERS[looseKey(v)];
  return g ? GENDER_ANSWERS[g]! : { error: 'must be M (Male), F (Female) or O (Other, self-described)' };
});

/**
 * Each code table's codes, meanings and other names (the code tables' own wording) by their loose key; a name with
 * `/` is taken by each of its parts.
 */
function codeLookup(field: NlrdField): Map<string, string> {
  const out = new Map<string, string>();
  const meanings = NLRD_MEANINGS[field] as Record<string, string>;
  const others = (NLRD_OTHER_NAMES[field] ?? {}) as Partial<Record<string, readonly string[]>>;
  for (const code of NLRD_CODES[field] as readonly string[]) {
    for (const named of [meanings[code]!, ...(others[code] ?? [])])
      for (const name of [named, ...named.split('/')]) if (!out.has(looseKey(name))) out.set(looseKey(name), code);
  }
  // A code is itself last, so a code always wins over a meaning that happens to match it.
  for (const code of NLRD_CODES[field] as readonly string[]) out.set(looseKey(code), code);
  if (field === 'provinceCode')
    for (const [abbr, code] of Object.entries(PROVINCE_ABBREVIATIONS)) out.set(looseKey(abbr), code);
  return out;
}

/** A coded column: the code or its meaning, any case (`7`, `Gauteng`, `GP`; `Zul`, `isiZulu`). */
export function codeCell(field: NlrdField): CellRule {
  const lookup = codeLookup(field);
  const meanings = NLRD_MEANINGS[field] as Record<string, string>;
  const list = (NLRD_CODES[field] as readonly string[]).map((c) => `${c} (${meanings[c]})`).join(', ');
  // Each code's answer made once (a file has a coded cell or more on each of its rows).
  const answers = new Map((NLRD_CODES[field] as readonly string[]).map((c) => [c, { ok: c }]));
  return remembered((v) => {
    // Codes such as `01` lose their leading 0 in a spreadsheet: `1` is `01` where the table has no `1`.
    const code = lookup.get(looseKey(v)) ?? (/^\d$/.test(v) ? lookup.get(`0${v}`) : undefined);
    return code
      ? (answers.get(code) ?? { ok: code })
      : { error: `must be one of the codes or their meanings: ${list}` };
  });
}
