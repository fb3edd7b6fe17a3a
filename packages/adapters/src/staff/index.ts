export * from './staff-storage.js';
