import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the receiver got, with the body exactly as sent. */
export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: string;
  /** Index of the request at this receiver, from 0. */
  index: number;
}

/**
 * What to answer the `index`-th request: a status code, or "hang" to keep it open without an
 * answer (until the receiver closes).
 */
export type Responder = (request: ReceivedRequest) => number | "hang";

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1:0 (node:http) that records every request. */
export async function startReceiver(respond: Responder = () => 200): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const received = {
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        index: requests.length,
      };
      requests.push(received);
      const answer = respond(received);
      if (answer === "hang") hanging.push(res);
      else res.writeHead(answer, { "content-type": "text/plain" }).end(answer < 300 ? "ok" : "nope");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
