/** HTTP methods the service uses. */
export type HttpMethod = "GET" | "HEAD" | "POST" | "PATCH" | "PUT" | "DELETE";

/** One HTTP attempt, fully prepared by the client: the transport only moves bytes. */
export interface TransportRequest {
  method: HttpMethod;
  /** Absolute URL including the query string. */
  url: URL;
  /** Request headers, lower-case names. Holds the Authorization header: never log it. */
  headers: Record<string, string>;
  /** Serialized JSON body, the same string on every attempt. */
  body?: string;
  /** Fires on the caller's abort or on the attempt's timeout; the transport must stop then. */
  signal: AbortSignal;
}

/** A complete HTTP answer: the transport reads the whole body before resolving. */
export interface TransportResponse {
  status: number;
  /** Response headers, lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The body as text ("" when there is none). */
  body: string;
}

/**
 * The one seam between the client and the HTTP engine (stripe-node's `makeRequest`), so undici
 * can be swapped for another engine or a fake in tests. It rejects only when no answer arrived
 * (connection failure or abort); every HTTP status, including 5xx, resolves.
 */
export interface Transport {
  makeRequest(request: TransportRequest): Promise<TransportResponse>;
  /** Releases pooled connections. Optional: a caller-supplied transport is closed by its owner. */
  close?(): Promise<void>;
}
