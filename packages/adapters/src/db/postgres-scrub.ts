import type pg from 'pg';

/**
 * VACUUM removes the dead versions of the given tables' rows (an erased learner's old row, redacted events)
 * from the heap and indexes, where a superuser reading the files could otherwise find them. What the WAL and
 * backups already hold ages out with their retention (docs/architecture.md, "Erasure on disk"). A version that
 * a transaction still open in the database may see cannot be removed yet, nor can one on a page another session
 * has pinned at that moment (VACUUM VERBOSE says how many of each): the table is vacuumed again until none is
 * left, for up to 10 s, then the job fails and is retried later.
 */
export async function scrubTables(client: pg.PoolClient, tables: readonly string[]): Promise<void> {
  let held = 0;
  const onNotice = (n: { message?: string }) => {
    // Held by an open transaction's snapshot, or left on a page another session had pinned at that moment.
    for (const re of [/(\d+) are dead but not yet removable/, /tuples missed: (\d+) dead/]) {
      const m = re.exec(n.message ?? '');
      if (m) held += Number(m[1]);
    }
  };
  client.on('notice', onNotice);
  try {
    for (const t of tables) {
      if (!/^[a-z_][a-z0-9_]*$/.test(t)) throw new Error(`not a table name: ${t}`);
      for (let i = 0; ; i++) {
        held = 0;
        await client.query(`VACUUM (VERBOSE) ${t}`);
        if (held === 0) break;
        if (i >= 100) throw new Error(`${held} dead row versions of ${t} are still visible to an open transaction`);
        await new Promise((ok) => setTimeout(ok, 100));
      }
    }
  } finally {
    client.off('notice', onNotice);
  }
}
