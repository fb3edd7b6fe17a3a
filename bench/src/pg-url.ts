/** The Postgres server the bench uses: BENCH_PG_URL, or the local one the tests use. */
export const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
