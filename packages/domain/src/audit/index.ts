export * from './audit.js';
export * from './audit-chain.js';
export * from './audit-trail.js';
