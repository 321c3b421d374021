import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/** Whether `port` on the loopback can be listened on now (0: any free port, which it answers). */
async function listenable(port: number): Promise<number | null> {
  const server = createServer();
  const listening = await new Promise<boolean>((resolve) => {
    server.once("listening", () => resolve(true));
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1");
  });
  if (!listening) return null;
  const chosen = (server.address() as { port: number }).port;
  server.close();
  await once(server, "close");
  return chosen;
}

/** The lowest port of the system's ephemeral range, the ports listen(0) and outgoing connections take. */
function ephemeralLow(): number | null {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 20_000 ? low : null;
  } catch {
    return null;
  }
}

/**
 * A free port for a sandbox that a test names minutes before it listens (a doc walk's, between
 * npm pack and the installs; the quickstart's, started anew by each run): below the ephemeral
 * range where the system has one. A port from listen(0) is in that range, and any outgoing
 * connection's own end may take it meanwhile: one did, and the walk's sandbox met EADDRINUSE.
 */
export async function heldPort(taken: readonly number[] = []): Promise<number> {
  const low = ephemeralLow();
  if (low !== null) {
    for (let attempt = 0; attempt < 100; attempt++) {
      const port = 10_000 + Math.floor(Math.random() * (low - 10_000));
      if (!taken.includes(port) && (await listenable(port)) !== null) return port;
    }
  }
  const port = await listenable(0);
  if (port === null) throw new Error("no free port on 127.0.0.1");
  return port;
}
