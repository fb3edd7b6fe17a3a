export * from './in-memory-notifications.js';
