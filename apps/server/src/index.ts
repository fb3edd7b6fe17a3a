export * from './config.js';
export * from './compose.js';
export * from './bootstrap.js';
