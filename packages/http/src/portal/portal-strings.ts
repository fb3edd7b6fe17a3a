/**
 * Every word the learner portal shows, in one place (docs/dashboard.md, "Learner portal"): a translation is
 * another object of this shape.
 */
export const EN = {
  lang: 'en',
  brand: 'My learning',
  signIn: 'Sign in',
  signOut: 'Sign out',
  organisation: 'Organisation',
  address: 'Email or mobile number',
  addressHint: 'We send a sign-in link by email, or a six-digit code by WhatsApp.',
  sendLink: 'Send me a sign-in link or code',
  sentEmail:
    'If that address belongs to a learner who can sign in, we have sent a sign-in link to it. It works once, for 15 minutes.',
  sentCode:
    'If that number belongs to a learner who can sign in, we have sent a six-digit code to it on WhatsApp. It works once, for 15 minutes.',
  code: 'Six-digit code',
  useCode: 'Sign in with the code',
  tooMany: 'Too many requests: wait a few minutes and try again.',
  continueTitle: 'Continue signing in',
  continueText: 'Press the button to sign in on this device.',
  continueButton: 'Continue',
  refused: 'The link or code is not valid: it may have been used already or have expired. Ask for a new one.',
  signedOut: 'You are signed out.',
  expiredForm: 'The form has expired: reload the page and try again.',
  home: 'My programmes',
  noEnrolments: 'You are not enrolled in a programme yet.',
  competentOf: (c: number, t: number) => `${c} of ${t} modules competent`,
  module: 'Module',
  result: 'Result',
  notAssessed: 'not assessed yet',
  stillNeeded: 'Still needed',
  evidence: 'My evidence',
  noEvidence: 'No evidence uploaded yet.',
  feedback: 'Feedback',
  status: {
    submitted: 'submitted, waiting for review',
    approved: 'approved',
    revision_requested: 'revision requested',
    rejected: 'rejected',
    awaiting_upload: 'waiting for the file',
  } as Record<string, string>,
  from: 'from',
  notFound: 'This page does not exist.',
  problem: 'Something went wrong on our side. Try again later.',
  errorTitle: 'Problem',
  back: 'Back to my programmes',
} as const;

export type PortalStrings = typeof EN;
