export * from './webhook-routes.js';
export * from '../openapi/webhook-events.js';
export { webhookPages } from '../dashboard/pages/webhooks.js';
export * from './dashboard-deps.js';
