/** The same paging rules as the SQL repositories (defined once, in the domain). */
export { pageOf } from '@fundi/domain';
