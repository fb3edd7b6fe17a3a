export type Binding = string | number | boolean | null | undefined;

export interface RunResult {
  changes: number;
}

/**
 * The statements a dialect's builders run (`Dialect.claimWithSkipLocked`, `takeWithSkipLocked`): the part of
 * `SqlDb` (sql-db.ts) that needs no dialect, so the dialect can run on a database without knowing its type.
 */
export interface SqlStatements {
  all<T = Record<string, unknown>>(sql: string, bindings?: readonly Binding[]): Promise<T[]>;
  first<T = Record<string, unknown>>(sql: string, bindings?: readonly Binding[]): Promise<T | undefined>;
  run(sql: string, bindings?: readonly Binding[]): Promise<RunResult>;
  transaction<T>(work: (tx: SqlStatements) => Promise<T>): Promise<T>;
}
