export * from './hr-events.js';
export * from './hr-mapping.js';
export * from './hr-sync-config.js';
export * from './hr-sync-repositories.js';
