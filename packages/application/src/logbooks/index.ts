export * from './logbook-deps.js';
export * from './logbook-view.js';
export * from './logbook-entries.js';
export * from './logbook-sign-off.js';
export * from './logbook-progress.js';
export * from './logbook-use-cases.js';
export * from './logbook-submissions.js';
