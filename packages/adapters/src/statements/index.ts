export * from './statement-storage.js';
export * from './pdf-statement-renderer.js';
