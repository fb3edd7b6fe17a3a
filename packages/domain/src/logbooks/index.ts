export * from './logbook.js';
export * from './logbook-repository.js';
