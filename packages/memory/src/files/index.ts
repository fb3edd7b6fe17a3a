export * from './memory-file-store.js';
