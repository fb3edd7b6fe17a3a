export * from './portal.js';
