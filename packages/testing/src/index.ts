export * from './fixed-clock.js';
export * from './fake-mailer.js';
export * from './fake-messaging-channel.js';
export * from './fake-secrets.js';
export * from './documented-retention.js';
