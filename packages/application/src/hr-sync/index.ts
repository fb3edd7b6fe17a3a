export * from './hr-sync-ports.js';
export * from './hr-sync-view.js';
export * from './configure-hr-sync.js';
export * from './receive-hr-event.js';
export * from './hr-sync-logs.js';
export * from './hr-outbound-events.js';
export * from './hr-sync-use-cases.js';
export * from './authenticate-hr-call.js';
