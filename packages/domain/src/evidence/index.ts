export * from './evidence.js';
export * from './evidence-awaiting.js';
export * from './evidence-fields.js';
export * from './evidence-snapshot.js';
export * from './evidence-repository.js';
export * from './evidence-upload-keys.js';
