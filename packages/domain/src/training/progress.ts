import { Assessment, type AssessmentSnapshot, type Outcome } from './assessment.js';
import type { ModuleKind, ProgrammeModule } from './programme.js';

export interface ModuleProgress {
  code: string;
  name: string;
  kind: ModuleKind;
  latestOutcome: Outcome | null;
  assessmentId: string | null;
  moderated: boolean;
}

export interface Progress {
  competent: number;
  total: number;
  modules: ModuleProgress[];
}

/** Later assessment date wins; on the same date the later record (ids sort by creation). */
function isLater(a: AssessmentSnapshot, b: AssessmentSnapshot): boolean {
  return a.assessmentDate > b.assessmentDate || (a.assessmentDate === b.assessmentDate && a.id > b.id);
}

/**
 * Progress of one enrolment: per module, the latest summative assessment and its effective outcome (after
 * moderation). Formative results and other enrolments' results never count.
 */
export function progressOf(modules: readonly ProgrammeModule[], assessments: readonly AssessmentSnapshot[]): Progress {
  const latest = new Map<string, AssessmentSnapshot>();
  for (const a of assessments) {
    if (a.assessmentType !== 'summative') continue;
    const cur = latest.get(a.moduleCode);
    if (!cur || isLater(a, cur)) latest.set(a.moduleCode, a);
  }
  const out = modules.map((m): ModuleProgress => {
    const a = latest.get(m.code);
    return {
      code: m.code,
      name: m.name,
      kind: m.kind,
      latestOutcome: a ? Assessment.effectiveOutcome(a) : null,
      assessmentId: a?.id ?? null,
      moderated: Boolean(a?.moderation),
    };
  });
  return { competent: out.filter((m) => m.latestOutcome === 'C').length, total: out.length, modules: out };
}

/** Module codes without a competent summative result: what stops completion. */
export function missingModules(p: Progress): string[] {
  return p.modules.filter((m) => m.latestOutcome !== 'C').map((m) => m.code);
}
