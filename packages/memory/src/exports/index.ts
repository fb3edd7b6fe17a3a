export * from './in-memory-exports.js';
