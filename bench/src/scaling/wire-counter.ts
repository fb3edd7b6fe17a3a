import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * What one group of connections asked of Postgres, counted on the wire from the client's protocol messages: exact
 * whatever else the server runs, so it works on a shared server too. (Rows written are read from the server's
 * table statistics instead: a CommandComplete tag does not count the rows a writable CTE changes.)
 */
export interface WireCounts {
  /** Statements run: extended-protocol Executes plus simple Queries (BEGIN and COMMIT are simple Queries). */
  statements: number;
  /** Transactions opened with BEGIN (a statement outside one is a transaction of its own, not counted here). */
  begins: number;
  /** Parse messages: a statement parsed and planned anew (named ones are parsed once per connection). */
  parses: number;
  /** Round trips: Syncs plus simple Queries, each of which waits for the server's answer. */
  roundTrips: number;
  bytesToServer: number;
  bytesFromServer: number;
}

export function emptyCounts(): WireCounts {
  return { statements: 0, begins: 0, parses: 0, roundTrips: 0, bytesToServer: 0, bytesFromServer: 0 };
}

/** b - a, field by field. */
export function minusCounts(b: WireCounts, a: WireCounts): WireCounts {
  return {
    statements: b.statements - a.statements,
    begins: b.begins - a.begins,
    parses: b.parses - a.parses,
    roundTrips: b.roundTrips - a.roundTrips,
    bytesToServer: b.bytesToServer - a.bytesToServer,
    bytesFromServer: b.bytesFromServer - a.bytesFromServer,
  };
}

/** One connection's client-to-server stream, cut into protocol messages. */
class Connection {
  private pending: Buffer = Buffer.alloc(0);
  private startupDone = false;

  constructor(private readonly c: WireCounts) {}

  client(chunk: Buffer): void {
    this.c.bytesToServer += chunk.length;
    let buf = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    if (!this.startupDone) {
      // The startup message has a length but no type byte.
      if (buf.length < 4 || buf.length < buf.readInt32BE(0)) return void (this.pending = Buffer.from(buf));
      buf = buf.subarray(buf.readInt32BE(0));
      this.startupDone = true;
    }
    while (buf.length >= 5) {
      const len = buf.readInt32BE(1);
      if (buf.length < len + 1) break;
      this.message(String.fromCharCode(buf[0]!), buf.subarray(5, len + 1));
      buf = buf.subarray(len + 1);
    }
    this.pending = Buffer.from(buf);
  }

  private message(type: string, body: Buffer): void {
    if (type === 'Q') {
      this.c.statements++;
      this.c.roundTrips++;
      if (/^\s*begin\b/i.test(cstring(body, 0))) this.c.begins++;
    } else if (type === 'P') this.c.parses++;
    else if (type === 'E') this.c.statements++;
    else if (type === 'S') this.c.roundTrips++;
  }
}

function cstring(b: Buffer, at: number): string {
  return b.toString('utf8', at, b.indexOf(0, at));
}

export interface WireCounter {
  /** Connect here instead of to Postgres. */
  port: number;
  counts(): WireCounts;
  /** The local ports of the connections this proxy opened to Postgres: `client_port` in pg_stat_activity. */
  serverSidePorts(): number[];
  close(): Promise<void>;
}

/** A TCP proxy to Postgres on 127.0.0.1 that counts what passes (SSL is not offered: the bench connects plainly). */
export async function startWireCounter(pgHost: string, pgPort: number): Promise<WireCounter> {
  const counts = emptyCounts();
  const upstreams = new Set<Socket>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((down) => {
    const up = connect(pgPort, pgHost);
    const conn = new Connection(counts);
    upstreams.add(up);
    sockets.add(down).add(up);
    down.on('data', (d: Buffer) => {
      conn.client(d);
      up.write(d);
    });
    up.on('data', (d: Buffer) => {
      counts.bytesFromServer += d.length;
      down.write(d);
    });
    const end = () => {
      upstreams.delete(up);
      down.destroy();
      up.destroy();
    };
    down.on('close', end).on('error', end);
    up.on('close', end).on('error', end);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    port: (server.address() as AddressInfo).port,
    counts: () => structuredClone(counts),
    serverSidePorts: () => [...upstreams].map((s) => s.localPort).filter((p): p is number => p !== undefined),
    close: () =>
      new Promise((ok) => {
        for (const s of sockets) s.destroy();
        server.close(() => ok());
      }),
  };
}
