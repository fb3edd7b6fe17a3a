export * from './portal-deps.js';
export * from './portal-sign-in.js';
export * from './portal-sessions.js';
export * from './portal-use-cases.js';
export * from './learner-scopes.js';
