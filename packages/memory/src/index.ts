export * from './common/index.js';
export * from './files/index.js';
export * from './jobs/index.js';
