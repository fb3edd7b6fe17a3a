export * from '../users/user-routes.js';
export { userPages } from '../dashboard/pages/users.js';
