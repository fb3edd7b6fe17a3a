export * from './programme.js';
export * from './enrolment-status.js';
export * from './enrolment.js';
export * from './assessment.js';
export * from './progress.js';
export * from './moderation-sample.js';
export * from './training-repositories.js';
export * from './enrolment-repository.js';
