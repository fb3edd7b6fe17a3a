export * from './webhook-storage.js';
export * from './signature.js';
export * from './address-guard.js';
export * from './receiver-check.js';
export * from './undici-transport.js';
export * from '../wiring/webhook-infra.js';
