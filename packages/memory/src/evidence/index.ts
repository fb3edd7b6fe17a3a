export * from './evidence-tables.js';
export * from './in-memory-evidence.js';
export * from './in-memory-upload-tickets.js';
export * from './in-memory-upload-keys.js';
export * from './in-memory-evidence-bundles.js';
export * from './in-memory-evidence-settings.js';
export * from './in-memory-storage-history.js';
export * from './evidence-memory.js';
