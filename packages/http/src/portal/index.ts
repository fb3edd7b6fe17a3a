export * from './portal.js';
export * from './portal-deps.js';
