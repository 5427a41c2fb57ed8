// A loopback TCP proxy in front of PostgreSQL, so a test can cut, stall or restore "the network" without touching the server.
import net from "node:net";

export interface TcpProxy {
  port: number;
  /** Drops every open connection and refuses new ones (the database looks down). */
  cut(): Promise<void>;
  /** Accepts connections again on the same port. */
  restore(): Promise<void>;
  /** Bytes stop flowing both ways (a hung network) until `resume`; new connections hang too. */
  stall(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startProxy(targetPort: number, targetHost = "127.0.0.1"): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let stalled = false;
  const held: Array<() => void> = [];
  const server = net.createServer((client) => {
    const open = () => {
      const upstream = net.connect(targetPort, targetHost);
      sockets.add(client);
      sockets.add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(client);
        sockets.delete(upstream);
      };
      client.on("error", drop).on("close", drop);
      upstream.on("error", drop).on("close", drop);
      client.on("data", (d) => (stalled ? held.push(() => upstream.write(d)) : upstream.write(d)));
      upstream.on("data", (d) => (stalled ? held.push(() => client.write(d)) : client.write(d)));
    };
    if (stalled) held.push(open);
    else open();
  });
  const listen = (port: number) => new Promise<number>((resolve) => server.listen(port, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port)));
  const port = await listen(0);
  return {
    port,
    async cut() {
      for (const s of sockets) s.destroy();
      sockets.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async restore() {
      await listen(port);
    },
    stall() {
      stalled = true;
    },
    resume() {
      stalled = false;
      for (const f of held.splice(0)) f();
    },
    async close() {
      for (const s of sockets) s.destroy();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The same URL pointed at the proxy. */
export function viaProxy(url: string, port: number): string {
  const u = new URL(url);
  u.hostname = "127.0.0.1";
  u.port = String(port);
  return u.toString();
}
