export * from './in-memory-training.js';
