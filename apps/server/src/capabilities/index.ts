// The capability list (docs/architecture.md, "Capabilities") and what is derived from it over a container.
export * from './capability-list.js';
export * from './capability-parts.js';
