export * from './in-memory-platform.js';
