export * from './builders.js';
