export * from '../users/user-routes.js';
export { userPages } from '../users/user-pages.js';
