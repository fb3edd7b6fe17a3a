export * from './in-memory-portal.js';
