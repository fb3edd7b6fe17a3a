export * from './sql-hr-sync.js';
