export * from './in-memory-tenants.js';
