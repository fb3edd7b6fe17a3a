export * from './statement-ports.js';
export * from './statement-events.js';
export * from './statement-service.js';
export * from './statement-verification.js';
export * from './statement-view.js';
export * from './statement-use-cases.js';
