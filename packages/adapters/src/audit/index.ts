export * from './audit-storage.js';
