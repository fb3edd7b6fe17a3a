import { trainingStorage } from '@fundi/adapters/training';
import {
  assessmentExport,
  assessmentImport,
  enrolmentExport,
  enrolmentImport,
  trainingUseCases,
} from '@fundi/application/training';
import {
  assessmentRoutes,
  enrolmentRoutes,
  programmeRoutes,
  trainingEvents,
  programmePages,
  enrolmentPages,
  enrolmentRecordPages,
  assessmentIds,
  bulkEnrol,
  bulkEnrolPages,
  learnerActionPages,
  learnerAssessments,
  learnerEnrolments,
  learnersInTraining,
  moderationDue,
  trainingTiles,
  watchSection,
  completionSection,
  recordingListPages,
  moderationPages,
} from '@fundi/http/training';
import { capability } from './capability.js';

/** Programmes, enrolments, assessments and moderation. */
export const training = capability({
  name: 'training',
  storage: trainingStorage,
  declares: {
    scopes: {
      'programmes:read': ['admin', 'manager', 'assessor', 'moderator', 'facilitator', 'viewer', 'integration'],
      'programmes:write': ['admin', 'manager', 'integration'],
      'programmes:delete': ['admin', 'manager'],
      'enrolments:read': ['admin', 'manager', 'assessor', 'moderator', 'facilitator', 'viewer', 'integration'],
      'enrolments:write': ['admin', 'manager', 'facilitator', 'integration'],
      'assessments:read': ['admin', 'manager', 'assessor', 'moderator', 'facilitator', 'viewer', 'integration'],
      'assessments:write': ['admin', 'manager', 'assessor', 'integration'],
      'assessments:moderate': ['admin', 'moderator'],
    },
    // Programmes, enrolments, assessments, moderations, moderation samples, enrolment status history.
    ids: ['prg', 'enr', 'asm', 'mod', 'smp', 'esh'],
    events: trainingEvents,
    offers: { exportTypes: [enrolmentExport, assessmentExport], importKinds: [enrolmentImport, assessmentImport] },
  },
  useCases: trainingUseCases,
  routes: (u) => [...programmeRoutes(u), ...enrolmentRoutes(u), ...assessmentRoutes(u)],
  pageDeps: (u) => ({ training: u }),
  dashboard: {
    nav: [
      { href: '/dashboard/programmes', label: 'Programmes', order: 20, scope: 'programmes:read' },
      { href: '/dashboard/enrolments', label: 'Enrolments', order: 30, scope: 'enrolments:read' },
      { href: '/dashboard/assessments', label: 'Record results', order: 35, scope: 'assessments:write' },
      { href: '/dashboard/moderation', label: 'Moderation', order: 50, scope: 'assessments:read' },
    ],
    pages: [
      programmePages,
      enrolmentPages,
      enrolmentRecordPages,
      recordingListPages,
      moderationPages,
      bulkEnrolPages,
      learnerActionPages,
    ],
    sections: {
      learnerRecord: [learnerEnrolments, learnerAssessments],
      overviewLanding: [learnersInTraining, moderationDue],
      overviewTiles: [trainingTiles],
      overview: [watchSection],
      overviewProgress: [completionSection],
      learnerBulk: [bulkEnrol],
      enrolmentRecordIds: [assessmentIds],
    },
  },
});
