export * from './training-storage.js';
