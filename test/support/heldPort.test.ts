import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { once } from "node:events";
import { afterEach, describe, expect, test, vi } from "vitest";
import { heldPort } from "./heldPort.ts";

const listening: Server[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const server of listening.splice(0)) {
    server.close();
    await once(server, "close");
  }
});

async function listenOn(port: number): Promise<Server> {
  const server = createServer();
  server.listen(port, "127.0.0.1");
  await once(server, "listening");
  listening.push(server);
  return server;
}

const ephemeralLow = Number(
  readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0],
);

describe("a port a test names before its sandbox listens", () => {
  test("is below the system's ephemeral range, and can be listened on", async () => {
    const port = await heldPort();
    expect(port).toBeGreaterThanOrEqual(10_000);
    expect(port).toBeLessThan(ephemeralLow);
    await listenOn(port);
  });

  test("is never one already taken, by a listener or by the caller's list: the next pick is tried", async () => {
    const portAt = (random: number) => 10_000 + Math.floor(random * (ephemeralLow - 10_000));
    const picks = (...randoms: number[]) => {
      const random = vi.spyOn(Math, "random");
      for (const value of randoms) random.mockReturnValueOnce(value);
    };
    await listenOn(portAt(0.5));
    picks(0.5, 0.25);
    expect(await heldPort()).toBe(portAt(0.25));
    picks(0.75, 0.125);
    expect(await heldPort([portAt(0.75)])).toBe(portAt(0.125));
  });
});
