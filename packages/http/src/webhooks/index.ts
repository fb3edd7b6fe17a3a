export * from './webhook-routes.js';
export * from '../openapi/webhook-events.js';
export { webhookPages } from './webhook-pages.js';
export * from './dashboard-deps.js';
