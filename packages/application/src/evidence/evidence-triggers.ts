import type { EvidenceRepos } from '@fundi/domain/evidence';
import { email, learner, staff, whatsapp } from '../common/trigger-templates.js';
import { pick, str, triggers } from '../common/triggers.js';

/**
 * The evidence's triggers (the `triggers` hook, docs/architecture.md "A capability's anatomy"): a learner hears
 * that their evidence was approved or is to be revised, and the assessors that new evidence awaits review. The
 * evidence record a review names is read here, for its kind and its enrolment.
 */
export const evidenceTriggers = triggers({
  variables: {
    'evidence.type': { about: 'what kind of evidence was submitted (portfolio, logbook, ...)', alias: 'evidence_type' },
    'evidence.feedback': { about: "the reviewer's feedback on the evidence", alias: 'feedback' },
  },
  pages: ['/evidence'],
  templates: [
    {
      key: 'evidence_approved',
      order: 20,
      audience: 'learner',
      trigger: 'evidence a learner submitted is approved',
      email: email(
        'Your {{evidence.type}} was approved',
        ['Hi {{learner.firstName}},', 'Your {{evidence.type}} for {{module.name}} was approved.'],
        'See your progress',
      ),
      whatsapp: whatsapp('evidence_approved', ['learner.firstName', 'evidence.type', 'module.name']),
      sample: {
        ...learner,
        actionUrl: 'https://app.fundi.example/learn?tenant=ubuntu-skills',
        'evidence.type': 'portfolio of evidence',
        'module.name': 'Module 2: Workplace safety',
      },
    },
    {
      key: 'evidence_revision',
      order: 30,
      audience: 'learner',
      trigger: 'a reviewer asks for evidence to be revised',
      email: email(
        'Please revise your {{evidence.type}}',
        [
          'Hi {{learner.firstName}},',
          'Your {{evidence.type}} for {{module.name}} needs changes. Your reviewer wrote:',
          '{{evidence.feedback}}',
        ],
        'Upload a new version',
      ),
      whatsapp: whatsapp('evidence_revision', ['learner.firstName', 'evidence.type', 'evidence.feedback', 'actionUrl']),
      sample: {
        ...learner,
        actionUrl: 'https://app.fundi.example/learn?tenant=ubuntu-skills',
        'evidence.type': 'logbook',
        'module.name': 'Module 3: Tools',
        'evidence.feedback': "Please add the supervisor's signature on page 4.",
      },
    },
    {
      key: 'new_evidence',
      order: 70,
      audience: 'staff',
      trigger: 'a learner submits evidence to review',
      email: email(
        'New evidence from {{learner.firstName}} {{learner.lastName}}',
        [
          'Hi {{recipient.firstName}},',
          '{{learner.firstName}} {{learner.lastName}} submitted {{evidence.type}} for {{module.name}} ({{programme.name}}).',
        ],
        'Review the evidence',
      ),
      whatsapp: null,
      sample: {
        ...staff,
        'learner.firstName': 'Thandi',
        'learner.lastName': 'Nkosi',
        'evidence.type': 'portfolio of evidence',
        'module.name': 'Module 2: Workplace safety',
        'programme.name': 'National Certificate: Welding',
      },
    },
  ],
  sources: [
    {
      event: 'evidence.reviewed',
      reads: ({ data: d }) =>
        d.status === 'approved' || d.status === 'revision_requested'
          ? pick(d, ['evidenceId', 'learnerId', 'moduleId', 'status', 'feedback'])
          : null,
      // Approved, or a revision asked for (with the reviewer's feedback).
      tell: async (run, p, repos: Pick<EvidenceRepos, 'evidence'>) => {
        const d = p.data;
        const e = await repos.evidence.findById(p.tenantId, str(d.evidenceId));
        const ctx = e?.enrolmentId ? await run.enrolment(e.enrolmentId) : null;
        const approved = d.status === 'approved';
        return run.toLearner(approved ? 'evidence_approved' : 'evidence_revision', str(d.learnerId), {
          'evidence.type': (e?.evidenceType ?? 'evidence').replace(/_/g, ' '),
          'module.name': ctx?.modules.find((m) => m.code === d.moduleId)?.name ?? str(d.moduleId),
          ...(approved
            ? {}
            : {
                'evidence.feedback': str(d.feedback) || 'No note was added: please ask your assessor what to change.',
              }),
        });
      },
    },
    {
      event: 'evidence.uploaded',
      reads: (e) => pick(e.data, ['evidenceId', 'learnerId', 'moduleId', 'enrolmentId', 'evidenceType']),
      // The assessors hear of new evidence to review.
      tell: async (run, p) => {
        const d = p.data;
        const learner = await run.learner(str(d.learnerId));
        if (!learner) return [];
        const ctx = await run.enrolment(str(d.enrolmentId));
        const values = {
          'learner.firstName': learner.firstName,
          'learner.lastName': learner.lastName,
          'evidence.type': str(d.evidenceType).replace(/_/g, ' ') || 'evidence',
          'module.name': ctx?.modules.find((m) => m.code === d.moduleId)?.name ?? str(d.moduleId),
          'programme.name': ctx?.programmeName ?? '',
          actionUrl: run.dashboardUrl('/evidence'),
        };
        return run.toStaff('new_evidence', ['assessor'], values, learner.id);
      },
    },
  ],
});
