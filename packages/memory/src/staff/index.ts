export * from './in-memory-staff.js';
