export * from './learner-storage.js';
