export * from './import.js';
