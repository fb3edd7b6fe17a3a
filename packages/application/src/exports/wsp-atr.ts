import type { LearnerSnapshot } from '@fundi/domain/learners';
import type { EnrolmentSnapshot, ProgrammeSnapshot } from '@fundi/domain/training';
import type { Column } from './export-type.js';

/** One learner in one programme, as the WSP/ATR count it (docs/api.md, "WSP and ATR"). */
export interface TrainingRow {
  l: LearnerSnapshot;
  e: EnrolmentSnapshot;
  p: ProgrammeSnapshot;
  /** The day ages are taken on (the period's end). */
  asOf: string;
}

const U = 'unknown';
export const POPULATION_GROUPS = ['african', 'coloured', 'indian_asian', 'white', 'other', 'foreign_national', U];
export const AGE_BANDS = ['under_35', '35_54', '55_64', 'over_64', U];
const EQUITY: Record<string, string> = { BA: 'african', BC: 'coloured', BI: 'indian_asian', Wh: 'white', Oth: 'other' };

/** Foreign nationals are their own group (as SETAs count them); the rest by equity code; else unknown. */
export function populationGroup(l: LearnerSnapshot): string {
  if (l.nationalityCode && l.nationalityCode !== 'SA' && l.nationalityCode !== 'U') return 'foreign_national';
  return (l.equityCode && EQUITY[l.equityCode]) || U;
}

export function ageBand(l: LearnerSnapshot, asOf: string): string {
  if (!l.dateOfBirth) return U;
  let age = Number(asOf.slice(0, 4)) - Number(l.dateOfBirth.slice(0, 4));
  if (asOf.slice(5, 10) < l.dateOfBirth.slice(5, 10)) age--;
  return age < 35 ? 'under_35' : age < 55 ? '35_54' : age < 65 ? '55_64' : 'over_64';
}

/** Disabled when a disability code other than N is recorded; unknown when none is. */
export function disability(l: LearnerSnapshot): 'yes' | 'no' | 'unknown' {
  return l.disabilityStatusCode === null ? U : l.disabilityStatusCode === 'N' ? 'no' : 'yes';
}

export function completionStatus(e: EnrolmentSnapshot): string {
  return e.status === 'completed' ? 'completed' : e.status === 'withdrawn' ? 'withdrawn' : 'not_completed';
}

function employment(l: LearnerSnapshot): string {
  const s = l.socioeconomicStatusCode;
  return s === '01' ? 'employed' : s && s !== 'U' ? 'unemployed' : U;
}

const PIVOTAL = new Set(['occupational_qualification', 'part_qualification', 'learnership']);
const or = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? U : v);

/** The learner-level detail row (modelled on a mandatory-grant detail line). */
export const DETAIL_COLUMNS: Record<string, Column<TrainingRow>> = {
  learner_id: (r) => r.l.id,
  first_name: (r) => r.l.firstName,
  last_name: (r) => r.l.lastName,
  id_type: (r) => (r.l.idNumber ? 'sa_id' : or(r.l.alternateIdType)),
  id_number: (r) => or(r.l.idNumber ?? r.l.alternateId),
  date_of_birth: (r) => or(r.l.dateOfBirth),
  age_band: (r) => ageBand(r.l, r.asOf),
  gender: (r) => or(r.l.gender),
  population_group: (r) => populationGroup(r.l),
  equity_code: (r) => or(r.l.equityCode),
  nationality_code: (r) => or(r.l.nationalityCode),
  disability: (r) => disability(r.l),
  disability_status_code: (r) => or(r.l.disabilityStatusCode),
  employment_status: (r) => employment(r.l),
  employer: (r) => or(r.l.employer),
  job_title: (r) => or(r.l.jobTitle),
  ofo_code: () => U,
  province_code: (r) => or(r.l.provinceCode),
  programme_code: (r) => r.p.code,
  programme_name: (r) => r.p.name,
  programme_type: (r) => r.p.type,
  nqf_level: (r) => or(r.p.nqfLevel),
  qualification_id: (r) => or(r.p.qualificationId),
  pivotal: (r) => (PIVOTAL.has(r.p.type) ? 'Y' : 'N'),
  start_date: (r) => r.e.startDate,
  end_date: (r) => or(r.e.achievementDate ?? r.e.expectedEndDate),
  enrolment_status: (r) => r.e.status,
  completion_status: (r) => completionStatus(r.e),
  funding_source: (r) => or(r.e.fundingSource),
};

/** The summary columns: one row per programme and completion status, with the counts. */
export const SUMMARY_COLUMNS = [
  'period_from',
  'period_to',
  'programme_code',
  'programme_name',
  'programme_type',
  'nqf_level',
  'qualification_id',
  'pivotal',
  'completion_status',
  'first_start_date',
  'last_end_date',
  'total',
  ...POPULATION_GROUPS.flatMap((g) => [`${g}_male`, `${g}_female`, `${g}_disabled`]),
  'disabled',
  'disability_unknown',
  ...AGE_BANDS.map((b) => `age_${b}`),
  'employed',
  'unemployed',
  'employment_unknown',
];
export const ATR_COLUMNS = Object.fromEntries([...SUMMARY_COLUMNS, ...Object.keys(DETAIL_COLUMNS)].map((c) => [c, c]));
export const WSP_COLUMNS = ATR_COLUMNS;

/** Counts per (programme, completion status), built while the detail rows stream past. */
export class TrainingSummary {
  private readonly groups = new Map<
    string,
    { row: TrainingRow; counts: Map<string, number>; first: string; last: string }
  >();

  add(r: TrainingRow): void {
    const key = `${r.p.id}|${completionStatus(r.e)}`;
    let g = this.groups.get(key);
    if (!g) this.groups.set(key, (g = { row: r, counts: new Map(), first: r.e.startDate, last: '' }));
    const inc = (k: string) => g!.counts.set(k, (g!.counts.get(k) ?? 0) + 1);
    const group = populationGroup(r.l);
    const d = disability(r.l);
    inc('total');
    inc(`${group}_${r.l.gender === 'F' ? 'female' : 'male'}`);
    if (d === 'yes') {
      inc(`${group}_disabled`);
      inc('disabled');
    }
    if (d === U) inc('disability_unknown');
    inc(`age_${ageBand(r.l, r.asOf)}`);
    const emp = employment(r.l);
    inc(emp === U ? 'employment_unknown' : emp);
    if (r.e.startDate < g.first) g.first = r.e.startDate;
    const end = r.e.achievementDate ?? r.e.expectedEndDate ?? '';
    if (end > g.last) g.last = end;
  }

  /** The summary rows, by programme code then completion status. */
  rows(period: { from: string; to: string }): (string | number)[][] {
    return [...this.groups.values()]
      .sort((a, b) =>
        a.row.p.code === b.row.p.code
          ? completionStatus(a.row.e).localeCompare(completionStatus(b.row.e))
          : a.row.p.code.localeCompare(b.row.p.code),
      )
      .map((g) => {
        const r = g.row;
        const fixedPart = [
          period.from,
          period.to,
          r.p.code,
          r.p.name,
          r.p.type,
          or(r.p.nqfLevel),
          or(r.p.qualificationId),
          PIVOTAL.has(r.p.type) ? 'Y' : 'N',
          completionStatus(r.e),
          g.first,
          or(g.last),
        ];
        return [...fixedPart, ...SUMMARY_COLUMNS.slice(fixedPart.length).map((c) => g.counts.get(c) ?? 0)];
      });
  }
}
