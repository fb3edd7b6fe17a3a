export * from '../users/user-routes.js';
export { userPages } from '../users/user-pages.js';
export * from '../users/user-fields.js';
