import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** A request as the mock server saw it. */
export interface SeenRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Parsed JSON body, or undefined. */
  json: unknown;
  /** Which TCP connection carried it (1-based, in order of opening). */
  connection: number;
}

/** What the server does with a request. */
export type Reply =
  | { status: number; headers?: Record<string, string>; body?: unknown; delayMs?: number }
  /** Closes the connection without answering: the client sees a connection error. */
  | "drop"
  /** Never answers: the client has to time out or abort. */
  | "hang";

export type Handler = (request: SeenRequest, index: number) => Reply | Promise<Reply>;

/** A real HTTP server on 127.0.0.1:0 that answers by `handler` and records every request. */
export interface MockServer {
  url: string;
  requests: SeenRequest[];
  /** TCP connections opened so far. */
  connectionCount(): number;
  close(): Promise<void>;
}

export async function startMockServer(handler: Handler): Promise<MockServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Map<Socket, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const seen: SeenRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body,
        json: body === "" ? undefined : (JSON.parse(body) as unknown),
        connection: sockets.get(req.socket) ?? 0,
      };
      requests.push(seen);
      void Promise.resolve(handler(seen, requests.length - 1)).then((reply) => answer(res, reply));
    });
  });
  server.on("connection", (socket) => sockets.set(socket, sockets.size + 1));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    connectionCount: () => sockets.size,
    close: async () => {
      for (const socket of sockets.keys()) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function answer(res: ServerResponse, reply: Reply): void {
  if (reply === "hang") return;
  if (reply === "drop") {
    res.socket?.destroy();
    return;
  }
  const send = () => {
    if (res.destroyed) return;
    const payload = reply.body === undefined ? "" : JSON.stringify(reply.body);
    res.writeHead(reply.status, {
      ...(payload === "" ? {} : { "content-type": "application/json" }),
      ...reply.headers,
    });
    res.end(payload);
  };
  if (reply.delayMs) setTimeout(send, reply.delayMs);
  else send();
}

/** The error body every non-2xx answer of the service carries (docs/spec-gaps.md). */
export function errorReply(
  status: number,
  code: string,
  message = `${code} happened`,
  extra: {
    requestId?: string;
    details?: { field: string; reason: string }[];
    headers?: Record<string, string>;
  } = {},
): Reply {
  return {
    status,
    ...(extra.headers ? { headers: extra.headers } : {}),
    body: { error: { code, message, requestId: extra.requestId ?? null, details: extra.details ?? [] } },
  };
}
