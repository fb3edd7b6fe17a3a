import type { LogbookDeps } from './logbook-deps.js';
import { AnswerSignOff } from './answer-sign-off.js';
import { CreateLogbookEntry } from './create-logbook-entry.js';
import { DeleteLogbookEntry } from './delete-logbook-entry.js';
import { GetLogbookEntry } from './get-logbook-entry.js';
import { GetLogbookProgress } from './get-logbook-progress.js';
import { LearnerLogbook } from './learner-logbook.js';
import { ListLogbookEntries } from './list-logbook-entries.js';
import { OpenSignOff } from './open-sign-off.js';
import { SubmitLogbookEntries } from './submit-logbook-entries.js';
import { SubmitLogbookEntry } from './submit-logbook-entry.js';
import { SubmitOpenLogbookEntries } from './submit-open-logbook-entries.js';
import { UpdateLogbookEntry } from './update-logbook-entry.js';

export type LogbookPorts = LogbookDeps;

/** Workplace logbooks (docs/api.md, "Logbooks"). */
export function logbookUseCases(p: LogbookPorts) {
  return {
    createLogbookEntry: new CreateLogbookEntry(p),
    getLogbookEntry: new GetLogbookEntry(p),
    listLogbookEntries: new ListLogbookEntries(p),
    updateLogbookEntry: new UpdateLogbookEntry(p),
    deleteLogbookEntry: new DeleteLogbookEntry(p),
    submitLogbookEntry: new SubmitLogbookEntry(p),
    submitLogbookEntries: new SubmitLogbookEntries(p),
    submitOpenLogbookEntries: new SubmitOpenLogbookEntries(p),
    learnerLogbook: new LearnerLogbook(p),
    openSignOff: new OpenSignOff(p),
    answerSignOff: new AnswerSignOff(p),
    progress: new GetLogbookProgress(p),
    /** Erasure: the learner's entries keep their hours and lose their personal text (safe to repeat). */
    eraseLearner: (tenantId: string, learnerId: string) => p.repos.logbookEntries.eraseLearner(tenantId, learnerId),
  };
}

export type LogbookUseCases = ReturnType<typeof logbookUseCases>;
