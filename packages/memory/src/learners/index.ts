export * from './in-memory-learners.js';
