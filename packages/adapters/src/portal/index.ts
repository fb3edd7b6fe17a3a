export * from './portal-storage.js';
