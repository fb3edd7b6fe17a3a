export * from './in-memory-imports.js';
