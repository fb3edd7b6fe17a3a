export * from './builders.js';
export * from './golden-data.js';
