export * from './worker-ports.js';
export * from './ticker.js';
export * from './job-runner.js';
export * from './delivery-pump.js';
export * from './worker.js';
