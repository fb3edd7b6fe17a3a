export * from './test-databases.js';
export * from './each-storage.js';
export * from './training-builders.js';
export * from './webhook-receiver.js';
export * from './azurite.js';
export * from './smtp-test-server.js';
export * from './cloud-api-test-server.js';
export * from './scratch-dir.js';
