export * from './evidence-storage.js';
export * from './sql-evidence.js';
export * from './sql-upload-tickets.js';
export * from './sql-upload-keys.js';
export * from './sql-evidence-settings.js';
