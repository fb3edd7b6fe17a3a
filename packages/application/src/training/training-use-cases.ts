import type { PlatformRepos } from '@fundi/domain';
import type { AuditRepos } from '@fundi/domain/audit';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { TrainingRepos } from '@fundi/domain/training';
import type { CoreDeps, SecretDeps } from '../common/ports.js';
import { GetAssessment } from '../assessments/get-assessment.js';
import { GetAssessments } from '../assessments/get-assessments.js';
import { GetModeration } from '../assessments/get-moderation.js';
import { ListAssessments } from '../assessments/list-assessments.js';
import { ModerateAssessment } from '../assessments/moderate-assessment.js';
import { SampleForModeration } from '../assessments/moderation-sample.js';
import { DrawModerationSample } from '../assessments/draw-moderation-sample.js';
import { GetModerationSample } from '../assessments/get-moderation-sample.js';
import { ListModerationSamples } from '../assessments/list-moderation-samples.js';
import { RecordAssessment } from '../assessments/record-assessment.js';
import { ChangeEnrolmentStatus } from '../enrolments/change-enrolment-status.js';
import { EnrolLearner } from '../enrolments/enrol-learner.js';
import { GetEnrolmentHistory } from '../enrolments/enrolment-history.js';
import { GetEnrolment } from '../enrolments/get-enrolment.js';
import { ListEnrolments } from '../enrolments/list-enrolments.js';
import { ListLearnerRoster } from '../enrolments/learner-roster.js';
import { EnrolmentCounts } from '../enrolments/enrolment-counts.js';
import { EnrolmentsAtRisk } from '../enrolments/enrolments-at-risk.js';
import { EnrolmentsDue } from '../enrolments/enrolments-due.js';
import { CreateProgramme } from '../programmes/create-programme.js';
import { DeleteProgramme } from '../programmes/delete-programme.js';
import { GetProgramme } from '../programmes/get-programme.js';
import { ListProgrammes } from '../programmes/list-programmes.js';
import { RetireProgramme } from '../programmes/retire-programme.js';
import { UpdateProgramme } from '../programmes/update-programme.js';

/** Training reads learners (enrolment and assessment checks) and writes its own records. */
export type TrainingPorts = CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos & AuditRepos> & SecretDeps;

/** The training record's use cases: programmes, enrolments, assessments and moderation. */
export function trainingUseCases(p: TrainingPorts) {
  return {
    createProgramme: new CreateProgramme(p),
    getProgramme: new GetProgramme(p),
    listProgrammes: new ListProgrammes(p),
    updateProgramme: new UpdateProgramme(p),
    retireProgramme: new RetireProgramme(p),
    deleteProgramme: new DeleteProgramme(p),
    enrolLearner: new EnrolLearner(p),
    getEnrolment: new GetEnrolment(p),
    listEnrolments: new ListEnrolments(p),
    listLearnerRoster: new ListLearnerRoster(p),
    enrolmentCounts: new EnrolmentCounts(p),
    enrolmentsAtRisk: new EnrolmentsAtRisk(p),
    enrolmentsDue: new EnrolmentsDue(p),
    changeEnrolmentStatus: new ChangeEnrolmentStatus(p),
    getEnrolmentHistory: new GetEnrolmentHistory(p),
    recordAssessment: new RecordAssessment(p),
    getAssessment: new GetAssessment(p),
    getAssessments: new GetAssessments(p),
    listAssessments: new ListAssessments(p),
    moderateAssessment: new ModerateAssessment(p),
    getModeration: new GetModeration(p),
    sampleForModeration: new SampleForModeration(p),
    drawModerationSample: new DrawModerationSample(p),
    getModerationSample: new GetModerationSample(p),
    listModerationSamples: new ListModerationSamples(p),
  };
}

export type TrainingUseCases = ReturnType<typeof trainingUseCases>;
