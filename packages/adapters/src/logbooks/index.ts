export * from './logbook-storage.js';
