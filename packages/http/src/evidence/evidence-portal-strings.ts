/**
 * The words the evidence's sections and pages of the learner portal show (docs/dashboard.md, "Learner portal"), in
 * one place beside the portal's own (`portal-strings.ts`): a translation is another object of this shape.
 */
export const EVIDENCE_EN = {
  feedback: 'Feedback',
  status: {
    submitted: 'submitted, waiting for review',
    approved: 'approved',
    revision_requested: 'revision requested',
    rejected: 'rejected',
    awaiting_upload: 'waiting for the file',
  } as Record<string, string>,
  uploadFor: (module: string) => `Upload evidence for ${module}`,
  file: 'Photo or document',
  evidenceType: 'What it is',
  types: {
    portfolio: 'Portfolio of evidence',
    assignment: 'Assignment',
    logbook: 'Logbook',
    observation: 'Observation',
    workplace_evidence: 'Workplace evidence',
    certificate: 'Certificate',
    identity_document: 'Identity document',
    other: 'Other',
  } as Record<string, string>,
  send: 'Upload',
  newVersion: 'Upload a new version',
  uploaded: 'Thank you: your file is uploaded and waiting for review.',
} as const;
