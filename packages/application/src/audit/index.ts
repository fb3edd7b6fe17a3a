export * from './audit-use-cases.js';
export * from './audit-view.js';
export * from './audit-erasure.js';
export * from './audit-export.js';
