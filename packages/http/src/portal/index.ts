export * from './portal.js';
export * from './portal-deps.js';
export * from './portal-sections.js';
export type * from './pages/home-slots.js';
