export * from './in-memory-jobs.js';
