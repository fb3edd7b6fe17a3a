export * from './in-memory-statements.js';
