export * from './in-memory-webhook-retention.js';
export * from './in-memory-webhooks.js';
export * from './webhook-tables.js';
export * from './in-memory-outbox-feed.js';
export * from './in-memory-tenant-alerts.js';
export * from './in-memory-webhook-log.js';
