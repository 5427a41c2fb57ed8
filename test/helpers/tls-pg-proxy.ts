// A PostgreSQL "server with TLS on" for tests: answers the client's SSLRequest, terminates TLS with the fixture certificate, forwards plain bytes to the real server.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import tls from "node:tls";
import { fileURLToPath } from "node:url";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "tls");
/** The CA that signed the proxy's certificate (for 127.0.0.1 and localhost); see test/fixtures/tls/README.md. */
export const TEST_CA_FILE = path.join(FIXTURES, "ca.pem");

// The 8-byte message a client sends to ask for TLS: length 8, then the code 80877103.
const SSL_REQUEST_CODE = 80877103;

export interface TlsPgProxy {
  port: number;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1; only TLS clients are served (a plain startup message is refused, as `hostssl` would). */
export async function startTlsPgProxy(targetPort: number, targetHost = "127.0.0.1"): Promise<TlsPgProxy> {
  const key = fs.readFileSync(path.join(FIXTURES, "server.key"));
  const cert = fs.readFileSync(path.join(FIXTURES, "server.pem"));
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on("error", () => client.destroy()).on("close", () => sockets.delete(client));
    client.once("readable", function first() {
      const head = client.read(8) as Buffer | null;
      if (!head) return void client.once("readable", first);
      if (head.readInt32BE(0) !== 8 || head.readInt32BE(4) !== SSL_REQUEST_CODE) return void client.destroy();
      client.write("S");
      const secure = new tls.TLSSocket(client, { isServer: true, key, cert });
      const upstream = net.connect(targetPort, targetHost);
      sockets.add(upstream);
      const drop = () => {
        secure.destroy();
        upstream.destroy();
        sockets.delete(upstream);
      };
      secure.on("error", drop).on("close", drop);
      upstream.on("error", drop).on("close", drop);
      secure.pipe(upstream);
      upstream.pipe(secure);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
