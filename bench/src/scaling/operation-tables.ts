import { RUNS, type OperationCost } from './operations.js';

const ms = (us: number, units: number) => (us / units / 1000).toFixed(3);
const per = (x: number, units: number) => (x / units).toFixed(x / units < 10 ? 2 : 0);

/** The per-operation table, and the rows each writes by table. */
export function printOperations(ops: readonly OperationCost[], where: string): void {
  process.stdout.write(`\n## Scaling: cost of each operation on Postgres (${where}; minimum of ${RUNS} runs)\n\n`);
  process.stdout.write(
    '| operation | per | API CPU ms | API backends CPU ms | worker CPU ms | worker backends CPU ms | whole Postgres CPU ms | statements | transactions | round trips | rows ins/upd/del | WAL bytes |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n',
  );
  for (const o of ops) {
    const a = o.cost.roles.api!;
    const w = o.cost.roles.worker!;
    const n = o.units;
    const wire = [a.wire, w.wire];
    const sum = (f: (x: (typeof wire)[number]) => number) => wire.reduce((s, x) => s + f(x), 0);
    const rows = Object.values(o.cost.tables ?? {}).reduce(
      (s, [i, u, d]) => [s[0]! + i, s[1]! + u, s[2]! + d],
      [0, 0, 0],
    );
    process.stdout.write(
      `| ${o.name}${o.note ? ` (${o.note})` : ''} | ${o.unit} | ${ms(a.appCpuUs, n)} | ${ms(a.backendCpuUs, n)} | ${ms(w.appCpuUs, n)} | ${ms(w.backendCpuUs, n)} | ${o.cost.clusterCpuUs === null ? 'n/a' : ms(o.cost.clusterCpuUs, n)} | ${per(
        sum((x) => x.statements),
        n,
      )} | ${per(
        sum((x) => x.begins),
        n,
      )} | ${per(
        sum((x) => x.roundTrips),
        n,
      )} | ${rows.map((x) => per(x, n)).join('/')} | ${Math.round(o.cost.walBytes / n)} |\n`,
    );
  }
  process.stdout.write(
    '\nRows written per unit by table, inserted/updated/deleted (pg_stat_user_tables, first run):\n\n| operation | rows by table |\n|---|---|\n',
  );
  for (const o of ops) {
    const parts = Object.entries(o.cost.tables ?? {})
      .sort((x, y) => y[1][0] + y[1][1] + y[1][2] - (x[1][0] + x[1][1] + x[1][2]))
      .map(([t, v]) => `${t} ${v.map((x) => per(x, o.units)).join('/')}`);
    process.stdout.write(`| ${o.name} | ${parts.join(', ') || '(none)'} |\n`);
  }
}

/** The statements each operation ran most often, per unit, with their mean time in the server. */
export function printStatements(ops: readonly OperationCost[]): void {
  if (!ops.some((o) => o.cost.top)) return;
  process.stdout.write(
    '\nStatements each operation ran most often (pg_stat_statements, first run; calls per unit, mean ms in the server):\n\n| operation | calls | mean ms | statement |\n|---|---|---|---|\n',
  );
  for (const o of ops)
    for (const t of (o.cost.top ?? []).filter((x) => x.calls >= o.units / 100))
      process.stdout.write(
        `| ${o.name} | ${(t.calls / o.units).toFixed(2)} | ${(t.totalMs / t.calls).toFixed(3)} | \`${t.query.replace(/\s+/g, ' ').replace(/\|/g, '/').slice(0, 140)}\` |\n`,
      );
}
