export * from './in-memory-webhook-retention.js';
export * from './in-memory-webhooks.js';
export * from './webhook-tables.js';
