export * from './in-memory-audit-trail.js';
