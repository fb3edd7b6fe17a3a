import type { LogbookDeps } from './logbook-deps.js';
import { LogbookEntries } from './logbook-entries.js';
import { LogbookProgress } from './logbook-progress.js';
import { LogbookSignOff } from './logbook-sign-off.js';

export type LogbookPorts = LogbookDeps;

/** Workplace logbooks (docs/api.md, "Logbooks"). */
export function logbookUseCases(p: LogbookPorts) {
  return {
    entries: new LogbookEntries(p),
    signOff: new LogbookSignOff(p),
    progress: new LogbookProgress(p),
    /** Erasure: the learner's entries keep their hours and lose their personal text (safe to repeat). */
    eraseLearner: (tenantId: string, learnerId: string) => p.repos.logbookEntries.eraseLearner(tenantId, learnerId),
  };
}

export type LogbookUseCases = ReturnType<typeof logbookUseCases>;
