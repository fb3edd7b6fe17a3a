export * from './config.js';
export * from './compose.js';
export * from './bootstrap.js';
export * from './compose-worker.js';
export * from './capabilities/index.js';
export { nudgeOnWrites } from './nudge.js';
export { HEAP_NODE_FLAGS, SEMI_SPACE_MB, tuneHeap } from './heap.js';
export { stopOnSignals, shutDown, type ShutdownSteps } from './shutdown.js';
