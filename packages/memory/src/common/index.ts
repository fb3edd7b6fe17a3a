export * from './memory-store.js';
export * from './paging.js';
