import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a server (the test Postgres), for tests of what a client does when the
 * server goes away without stopping the server itself, which other tests share: `cut` breaks every connection that
 * runs through it, `stop` makes new connections be refused (the port closed), `hold` makes them hang unanswered, and
 * `upstreamPorts` names the proxy's own connections to the server, so a test can end exactly those backends
 * (`pg_stat_activity.client_port`) and no other session.
 */
export interface TcpFaultProxy {
  port: number;
  /** Ends every connection through the proxy at once (both sides see the socket close). */
  cut(): void;
  /** Closes the port: new connections are refused until `resume`. */
  stop(): Promise<void>;
  /** New connections are accepted and never answered, until `resume`. */
  hold(): void;
  /** Forwards new connections again (on the same port). */
  resume(): Promise<void>;
  /** Local ports of the proxy's open connections to the server. */
  upstreamPorts(): number[];
  close(): Promise<void>;
}

export async function startTcpFaultProxy(target: { host: string; port: number }): Promise<TcpFaultProxy> {
  const pairs = new Set<{ down: Socket; up: Socket | null }>();
  let holding = false;
  const onConnection = (down: Socket) => {
    const pair: { down: Socket; up: Socket | null } = { down, up: null };
    pairs.add(pair);
    down.on('error', () => {});
    down.on('close', () => {
      pairs.delete(pair);
      pair.up?.destroy();
    });
    if (holding) return;
    const up = connect(target.port, target.host);
    pair.up = up;
    up.on('error', () => down.destroy());
    up.on('close', () => down.destroy());
    down.pipe(up);
    up.pipe(down);
  };
  let server: Server = createServer(onConnection);
  const listen = (port: number) =>
    new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', fail);
        ok();
      });
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  const cut = () => {
    for (const p of pairs) {
      p.down.destroy();
      p.up?.destroy();
    }
    pairs.clear();
  };
  const stop = async () => {
    cut();
    if (server.listening) await new Promise((ok) => server.close(ok));
  };
  return {
    port,
    cut,
    stop,
    hold: () => {
      holding = true;
    },
    async resume() {
      holding = false;
      if (server.listening) return;
      server = createServer(onConnection);
      await listen(port);
    },
    upstreamPorts: () =>
      [...pairs].map((p) => p.up?.localPort).filter((p): p is number => typeof p === 'number' && p > 0),
    close: stop,
  };
}
