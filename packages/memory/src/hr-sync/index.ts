export * from './in-memory-hr-sync.js';
