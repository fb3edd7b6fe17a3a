export * from './in-memory-logbooks.js';
