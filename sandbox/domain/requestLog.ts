/**
 * The request log the console's Events page reads (docs/sandbox.md "Request log"): each
 * organization's last requests, with their bodies redacted and cut short. The sandbox's storage
 * grows with money movements, not with requests, so the log is a ring buffer in memory with a
 * fixed capacity per organization: recording a request overwrites the oldest, and reading it costs
 * at most the capacity, whatever the number of wallets. It is not kept across restarts.
 */
import { ByteRing } from "./byteRing.ts";

/** Requests kept per organization; older ones are overwritten. */
export const REQUEST_LOG_CAPACITY = 500;
/**
 * Requests per organization whose bodies are kept; older ones keep everything but their bodies.
 * The bodies are nearly all of the log's memory (up to 8 KB a request): with all 500 kept, 64
 * organizations' logs alone would hold about 250 MB.
 */
export const REQUEST_LOG_BODIES_KEPT = 50;
/** Characters of a request's or an answer's body kept, after redaction. */
export const REQUEST_LOG_BODY_CHARS = 4096;

// A type, not an interface: an answer body must be assignable to a JSON object.
export type LoggedRequest = {
  /** The sandbox's id of the request, also its `x-request-id` header. */
  requestId: string;
  /**
   * The console's own id of the action it sent (its X-Sandbox-Console-Action-Id header), or null:
   * a console that stopped waiting looks its action up by it, to say what became of it.
   */
  consoleActionId: string | null;
  method: string;
  path: string;
  /** The query string, without `?`; empty when none. */
  query: string;
  status: number;
  /** When it arrived, real time (ISO 8601). */
  at: string;
  durationMs: number;
  /** The wallet it was about, when its path or body names one. */
  walletId: string | null;
  /** What it made: the ids its answer gave the objects it created (idsMadeBy). */
  madeIds: string[];
  requestBody: string | null;
  responseBody: string | null;
};

/** A logged request as listed: without its bodies (read one request for them). */
export type LoggedRequestSummary = Omit<LoggedRequest, "requestBody" | "responseBody">;

export interface RequestLogFilter {
  method?: string | undefined;
  /** An exact status (404), or a class (`4xx`). */
  status?: string | undefined;
  walletId?: string | undefined;
  /** The one request of this id (the Events page opened from Find). */
  requestId?: string | undefined;
  /** The console's action of this id (LoggedRequest.consoleActionId). */
  actionId?: string | undefined;
  limit: number;
}

export interface RequestLog {
  record(organizationId: string, request: LoggedRequest): void;
  /** Newest first. */
  list(organizationId: string, filter: RequestLogFilter): LoggedRequestSummary[];
  find(organizationId: string, requestId: string): LoggedRequest | null;
  /** The oldest request still held whose answer made this id (idsMadeBy), or null. */
  maker(organizationId: string, id: string): LoggedRequestSummary | null;
}

/** Names of fields whose values are credentials or secrets: never kept. */
const SECRET_FIELD = /secret|token|password|private|api.?key|signature|authorization|stamp/i;
/**
 * Text in which some field's name may match SECRET_FIELD: each of its words anywhere ("api"
 * without the rest, so that a name escaped in JSON text, `api\"key`, is still caught). A body
 * without any is kept with no field redacted; one with any is walked field by field.
 */
const MAY_NAME_A_SECRET = /secret|token|password|private|api|signature|authorization|stamp/i;
/** A webhook signing secret, wherever it appears. */
const WEBHOOK_SECRET = /whsec_[A-Za-z0-9_-]+/g;
export const REDACTED = "[redacted]";

/**
 * Fields whose names hold a secret's word but whose values are public: a withdrawal's
 * `destinationToken` is the symbol of the token paid out (`usdc`), not a credential, and a request
 * log that hides it hides what was asked for.
 */
const PUBLIC_FIELDS: ReadonlySet<string> = new Set(["destinationToken"]);

/** Replaces secret-named fields' values and webhook secrets as JSON.stringify walks a value. */
function redactingReplacer(key: string, value: unknown): unknown {
  if (key !== "" && SECRET_FIELD.test(key) && !PUBLIC_FIELDS.has(key)) return REDACTED;
  if (typeof value === "string" && value.includes("whsec_")) return value.replace(WEBHOOK_SECRET, REDACTED);
  return value;
}

/**
 * The first REQUEST_LOG_BODY_CHARS of a body, copied: a slice of a string is a view that keeps
 * the whole string alive (a list's answer of 30 KB for the 4 KB kept), so the cut is copied out.
 */
const cut = (kept: string) =>
  kept.length > REQUEST_LOG_BODY_CHARS
    ? `${Buffer.from(kept.slice(0, REQUEST_LOG_BODY_CHARS), "utf8").toString("utf8")}…`
    : kept;

/** Kept in place of a body nested too deeply to walk (a hostile request's `[[[[…`). */
export const TOO_DEEP_TO_KEEP = "[not kept: nested too deeply to redact]";

/**
 * A JSON value as the log keeps it: the values of secret-named fields and every webhook secret
 * replaced by `[redacted]`, cut to REQUEST_LOG_BODY_CHARS.
 */
export function redactValue(value: unknown): string {
  try {
    // Most bodies (a wallet list, a catalog) hold no word a secret's field name could have: they
    // are kept as the native JSON.stringify writes them, with no call back per value.
    const plain = JSON.stringify(value) ?? "";
    if (!MAY_NAME_A_SECRET.test(plain))
      return cut(plain.includes("whsec_") ? plain.replace(WEBHOOK_SECRET, REDACTED) : plain);
    return cut(JSON.stringify(value, redactingReplacer) ?? "");
  } catch {
    // JSON.parse accepts nesting deeper than a walk's stack allows: keep nothing of such a body
    // rather than fail the request it came with.
    return TOO_DEEP_TO_KEEP;
  }
}

/**
 * A body as the log keeps it: JSON as redactValue keeps it; text that is not JSON is kept only
 * with webhook secrets replaced; either cut to REQUEST_LOG_BODY_CHARS.
 */
export function redactBody(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return cut(text.replace(WEBHOOK_SECRET, REDACTED));
  }
  return redactValue(value);
}

const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
const WALLET_IN_PATH = new RegExp(`^/v2/portfolio-wallets/(${UUID})(?:/|$)`);
const WALLET_IN_CONSOLE_PATH = new RegExp(`^/_console/api/wallets/(${UUID})(?:/|$)`);
const IS_UUID = new RegExp(`^${UUID}$`);

/**
 * The wallet a request is about: named in its path, or as `walletId` / `portfolioWalletId` in its
 * body or its answer, or the wallet a creation made (`POST /v2/portfolio-wallets`).
 */
export function walletOfRequest(
  method: string,
  path: string,
  requestBody: unknown,
  responseBody: unknown,
): string | null {
  const inPath = WALLET_IN_PATH.exec(path) ?? WALLET_IN_CONSOLE_PATH.exec(path);
  if (inPath?.[1] !== undefined) return inPath[1].toLowerCase();
  for (const body of [requestBody, responseBody]) {
    if (body === null || typeof body !== "object") continue;
    for (const field of ["walletId", "portfolioWalletId"]) {
      const value = (body as Record<string, unknown>)[field];
      if (typeof value === "string" && IS_UUID.test(value)) return value.toLowerCase();
    }
  }
  if (method === "POST" && path === "/v2/portfolio-wallets" && responseBody !== null) {
    const id = (responseBody as Record<string, unknown>)["id"];
    if (typeof id === "string" && IS_UUID.test(id)) return id.toLowerCase();
  }
  return null;
}

/** A strategy update is made by a PATCH (spec 4.7), answered 200 like its replay. */
const STRATEGY_PATH = new RegExp(`^/v2/portfolio-wallets/${UUID}/strategy$`);

/**
 * The ids of the objects a request made, read from its answer: a creation answers the object
 * (201), whose `id` is the new object's and whose `signingActivityId` names the activity made with
 * it (a withdrawal or a strategy update waiting for approval). A replay answers the same ids (200,
 * or the strategy PATCH's 200 again): the object page takes the oldest request that names an id as
 * the one that made it.
 */
export function idsMadeBy(method: string, path: string, status: number, answer: unknown): string[] {
  const creates =
    (method === "POST" && status === 201) ||
    (method === "PATCH" && status === 200 && STRATEGY_PATH.test(path));
  if (!creates || answer === null || typeof answer !== "object") return [];
  const made: string[] = [];
  for (const field of ["id", "signingActivityId"]) {
    const value = (answer as Record<string, unknown>)[field];
    if (typeof value === "string" && IS_UUID.test(value)) made.push(value.toLowerCase());
  }
  return made;
}

const statusMatches = (status: number, wanted: string | undefined) =>
  wanted === undefined ||
  (/^[1-5]xx$/.test(wanted) ? Math.floor(status / 100) === Number(wanted[0]) : String(status) === wanted);

/**
 * A request's row as the log writes it: its summary's values in this order, as a JSON array (the
 * names are written once here, not in every row). Every field of the summary, checked below.
 */
const ROW_FIELDS = [
  "requestId",
  "consoleActionId",
  "method",
  "path",
  "query",
  "status",
  "at",
  "durationMs",
  "walletId",
  "madeIds",
] as const satisfies readonly (keyof LoggedRequestSummary)[];
// A field added to the summary and not to the row is a compile error here.
type UnwrittenField = Exclude<keyof LoggedRequestSummary, (typeof ROW_FIELDS)[number]>;
const everyFieldWritten: [UnwrittenField] extends [never] ? true : never = true;
void everyFieldWritten;

const rowOf = (request: LoggedRequestSummary): unknown[] => ROW_FIELDS.map((field) => request[field]);

const summaryOfRow = (row: unknown[]): LoggedRequestSummary =>
  Object.fromEntries(
    ROW_FIELDS.map((field, index) => [field, row[index]]),
  ) as unknown as LoggedRequestSummary;

/**
 * Bytes each organization's rows and bodies may take (sandbox/domain/byteRing.ts). They are far
 * above what the counts need (a row is about 250 bytes, a request's bodies a few KB): only rows
 * with long query strings, or bodies of multi-byte text near their 4,096 characters, come near
 * them, and then an organization keeps fewer than the counts rather than more memory.
 */
export const REQUEST_LOG_ROW_BYTES = 256 * 1024;
export const REQUEST_LOG_BODY_BYTES = 512 * 1024;

/**
 * A request's two bodies as one record: their lengths (-1 for none), then both texts as they are.
 * Not as JSON: the bodies are JSON text, and quoting them again would escape every quote in them.
 */
const bodiesRecord = (requestBody: string | null, responseBody: string | null) =>
  `${requestBody?.length ?? -1},${responseBody?.length ?? -1}|${requestBody ?? ""}${responseBody ?? ""}`;

function bodiesOfRecord(record: string): [string | null, string | null] {
  const bar = record.indexOf("|");
  const [requestLength, responseLength] = record.slice(0, bar).split(",").map(Number) as [number, number];
  const requestEnd = bar + 1 + Math.max(0, requestLength);
  return [
    requestLength < 0 ? null : record.slice(bar + 1, requestEnd),
    responseLength < 0 ? null : record.slice(requestEnd, requestEnd + responseLength),
  ];
}

interface OrganizationLog {
  /** Every request's row, tagged with its number. */
  rows: ByteRing;
  /** The bodies (bodiesRecord) of the requests that had any, tagged alike. */
  bodies: ByteRing;
  /** The number of the organization's newest request. */
  newest: number;
}

/**
 * One log per organization: its newest `capacity` requests' rows, and the bodies of those of them
 * among its newest `bodiesKept`. Rows and bodies are kept as bytes (ByteRing), so what the log
 * holds is never garbage for the heap to collect later.
 */
export function createRequestLog(
  capacity = REQUEST_LOG_CAPACITY,
  bodiesKept = REQUEST_LOG_BODIES_KEPT,
): RequestLog {
  const logs = new Map<string, OrganizationLog>();
  /** The organization's requests, newest first: each summary with its number. */
  function* newestFirst(
    organizationId: string,
  ): Generator<{ summary: LoggedRequestSummary; number: number }> {
    const log = logs.get(organizationId);
    if (log === undefined) return;
    for (const { text, tag } of log.rows.newestFirst())
      yield { summary: summaryOfRow(JSON.parse(text) as unknown[]), number: tag };
  }
  return {
    record(organizationId, request) {
      let log = logs.get(organizationId);
      if (log === undefined) {
        log = {
          rows: new ByteRing(capacity, REQUEST_LOG_ROW_BYTES),
          // At least one slot: a log that keeps no bodies never reads them (find, below).
          bodies: new ByteRing(Math.max(1, bodiesKept), REQUEST_LOG_BODY_BYTES),
          newest: 0,
        };
        logs.set(organizationId, log);
      }
      log.newest += 1;
      log.rows.push(JSON.stringify(rowOf(request)), log.newest);
      if (bodiesKept > 0 && (request.requestBody !== null || request.responseBody !== null))
        log.bodies.push(bodiesRecord(request.requestBody, request.responseBody), log.newest);
    },
    list(organizationId, filter) {
      const found: LoggedRequestSummary[] = [];
      for (const { summary: request } of newestFirst(organizationId)) {
        if (found.length >= filter.limit) break;
        if (filter.method !== undefined && request.method !== filter.method.toUpperCase()) continue;
        if (!statusMatches(request.status, filter.status)) continue;
        if (filter.walletId !== undefined && request.walletId !== filter.walletId.toLowerCase()) continue;
        if (filter.requestId !== undefined && request.requestId !== filter.requestId.toLowerCase()) continue;
        if (filter.actionId !== undefined && request.consoleActionId !== filter.actionId.toLowerCase())
          continue;
        found.push(request);
      }
      return found;
    },
    find(organizationId, requestId) {
      const log = logs.get(organizationId);
      for (const { summary, number } of newestFirst(organizationId)) {
        if (summary.requestId !== requestId) continue;
        // Only the newest `bodiesKept` requests keep their bodies, whether or not others had any.
        const kept = bodiesKept > 0 && log !== undefined && number > log.newest - bodiesKept;
        const bodies = kept ? log.bodies.find(number) : undefined;
        const [requestBody, responseBody] = bodies === undefined ? [null, null] : bodiesOfRecord(bodies);
        return { ...summary, requestBody, responseBody };
      }
      return null;
    },
    maker(organizationId, id) {
      let oldest: LoggedRequestSummary | null = null;
      for (const { summary } of newestFirst(organizationId))
        if (summary.madeIds.includes(id)) oldest = summary;
      return oldest;
    },
  };
}
