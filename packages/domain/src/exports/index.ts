export * from './regulator-settings.js';
export * from './fixed-width.js';
export * from './readiness.js';
export * from './qcto01.js';
export * from './qcto02.js';
export * from './export-record.js';
