// @ts-check
// An action the console sent, as code that does the same: the curl command, the TypeScript
// client's call and, where a resource does it, the Pulumi program's change. All three are made
// from the one record of what was sent (api.js SentRequest), so they cannot tell different
// stories, and that record holds no token: tokens stay shell or environment variables.
import {
  ACTION_ID_HEADER,
  ADMIN_TOKEN_SHOWN,
  API_TOKEN_SHOWN,
  CONSOLE_HEADER,
  DEADLINE_HEADER,
} from "./api.js";
import { servicePaths } from "./paths.js";

/** @typedef {import("./api.js").SentRequest} SentRequest */

/**
 * One way to write the request.
 * @typedef {object} CodeForm
 * @property {"curl" | "typescript" | "pulumi"} kind
 * @property {string} title what it is, in words
 * @property {string} what what its Copy button copies, for assistive technology (no "curl": a
 *   label search for "URL" would find it)
 * @property {string} text the code
 */

/** The environment variable of each placeholder the console shows in a token's place. */
const VARIABLES = /** @type {const} */ ([
  [API_TOKEN_SHOWN, "API_TOKEN"],
  [ADMIN_TOKEN_SHOWN, "ADMIN_TOKEN"],
]);

/** The package a user installs (README): the client and the resources are its exports. */
const PACKAGE = "@portfolio-wallet/pulumi";

/**
 * The code forms of a request, for a page at `origin` (the sandbox's, as the browser reached it).
 * A request stamped by the approver's key (the signing provider's) has none: a stamp signs these
 * exact bytes with a key that never leaves the browser, which no copied command can repeat.
 * @param {SentRequest} sent
 * @param {string} origin
 * @returns {CodeForm[]}
 */
export function codeForms(sent, origin) {
  if (sent.headers.some(([name]) => name.toLowerCase() === "x-stamp")) return [];
  const call = clientCallOf(sent);
  const pulumi = pulumiChangeOf(sent);
  return [
    { kind: "curl", title: "curl", what: "shell command", text: curlOf(sent, origin) },
    {
      kind: "typescript",
      what: "TypeScript code",
      title:
        call === null ? "TypeScript (fetch: the client covers the service's API only)" : "TypeScript client",
      text: call === null ? fetchOf(sent, origin) : clientProgram(call, origin),
    },
    ...(pulumi === null
      ? []
      : [
          {
            kind: /** @type {const} */ ("pulumi"),
            title: "Pulumi (TypeScript)",
            what: "Pulumi program change",
            text: pulumi,
          },
        ]),
  ];
}

/**
 * The headers a user's own call sends: not the console's mark, which keeps its calls out of counts
 * and faults, nor its deadline, a moment already past by the time a copied command runs, nor the
 * id the console looks its own action up by.
 */
const CONSOLE_ONLY_HEADERS = new Set(
  [CONSOLE_HEADER, DEADLINE_HEADER, ACTION_ID_HEADER].map((name) => name.toLowerCase()),
);
const headersOf = (/** @type {SentRequest} */ sent) =>
  sent.headers.filter(([name]) => !CONSOLE_ONLY_HEADERS.has(name.toLowerCase()));

// ---- curl (POSIX shell) ----

/** A word the shell takes literally, whatever it holds: single quotes, each ' written '\''. */
export function shellQuote(/** @type {string} */ text) {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * A header's value for the shell, its placeholders read from variables: in double quotes when
 * nothing else in it means anything to the shell there, else literal pieces beside "$VARIABLE".
 * @param {string} text
 */
function shellWordWithVariables(text) {
  const pieces = splitPlaceholders(text);
  if (pieces.every((piece) => typeof piece !== "string"))
    return pieces.map((p) => `"$${p.variable}"`).join("");
  if (pieces.length === 1) return shellQuote(text);
  const plain = pieces.every((piece) => typeof piece !== "string" || !/["$`\\!]/.test(piece));
  if (plain)
    return `"${pieces.map((piece) => (typeof piece === "string" ? piece : `$${piece.variable}`)).join("")}"`;
  return pieces
    .map((piece) => (typeof piece === "string" ? shellQuote(piece) : `"$${piece.variable}"`))
    .join("");
}

/**
 * A text as literal pieces and the variables its placeholders stand for.
 * @param {string} text
 * @returns {(string | { variable: string })[]}
 */
function splitPlaceholders(text) {
  /** @type {(string | { variable: string })[]} */
  const pieces = [];
  let rest = text;
  for (;;) {
    const found = VARIABLES.map(([shown, variable]) => ({ at: rest.indexOf(shown), shown, variable }))
      .filter(({ at }) => at >= 0)
      .sort((a, b) => a.at - b.at)[0];
    if (found === undefined) break;
    if (found.at > 0) pieces.push(rest.slice(0, found.at));
    pieces.push({ variable: found.variable });
    rest = rest.slice(found.at + found.shown.length);
  }
  if (rest !== "" || pieces.length === 0) pieces.push(rest);
  return pieces;
}

/**
 * @param {SentRequest} sent
 * @param {string} origin
 */
function curlOf(sent, origin) {
  const lines = [
    `curl ${sent.method === "GET" ? "" : `-X ${sent.method} `}${shellQuote(`${origin}${sent.path}`)}`,
    ...headersOf(sent).map(([name, value]) => `-H ${shellWordWithVariables(`${name}: ${value}`)}`),
    // --data-raw: sent as written (--data would read a file for a body starting with @).
    ...(sent.body === null ? [] : [`--data-raw ${shellQuote(sent.body)}`]),
  ];
  return lines.join(" \\\n  ");
}

// ---- TypeScript ----

/** A string as a TypeScript template literal's text, its placeholders read from the environment. */
function templateWithVariables(/** @type {string} */ text) {
  return splitPlaceholders(text)
    .map((piece) =>
      typeof piece === "string"
        ? piece.replaceAll("\\", "\\\\").replaceAll("`", "\\`").replaceAll("${", "\\${")
        : `\${process.env.${piece.variable}}`,
    )
    .join("");
}

/** A JSON body as a TypeScript expression, indented to sit at `indent`. */
function literal(/** @type {unknown} */ value, indent = "") {
  return JSON.stringify(value, null, 2).replaceAll("\n", `\n${indent}`);
}

/** @param {SentRequest} sent */
function bodyOf(sent) {
  if (sent.body === null) return undefined;
  try {
    return JSON.parse(sent.body);
  } catch {
    return sent.body;
  }
}

/**
 * @param {SentRequest} sent
 * @param {string} origin
 */
function fetchOf(sent, origin) {
  const headers = headersOf(sent).map(
    ([name, value]) => `    ${JSON.stringify(name)}: \`${templateWithVariables(value)}\`,`,
  );
  const body = bodyOf(sent);
  return [
    `const response = await fetch(${JSON.stringify(`${origin}${sent.path}`)}, {`,
    `  method: ${JSON.stringify(sent.method)},`,
    "  headers: {",
    ...headers,
    "  },",
    ...(body === undefined ? [] : [`  body: JSON.stringify(${literal(body, "  ")}),`]),
    "});",
    "console.log(response.status, await response.text());",
  ].join("\n");
}

/**
 * What the client calls for a path of the service: each from paths.js, so a path is written once.
 * `id` marks where the path names an id; `call` writes the client's method and its arguments.
 * @type {{ method: string, path: (id: string) => string, call: (id: string, body: string) => string }[]}
 */
const CLIENT_CALLS = [
  { method: "POST", path: () => servicePaths.createWallet, call: (_id, body) => `wallets.create(${body})` },
  { method: "GET", path: (id) => servicePaths.wallet(id), call: (id) => `wallets.retrieve(${id})` },
  {
    method: "PATCH",
    path: (id) => servicePaths.walletStrategy(id),
    call: (id, body) => `wallets.updateStrategy(${id}, ${body})`,
  },
  {
    method: "POST",
    path: (id) => servicePaths.walletWithdraw(id),
    call: (id, body) => `withdrawals.create(${id}, ${body})`,
  },
  {
    method: "POST",
    path: () => servicePaths.createWebhookRegistration,
    call: (_id, body) => `webhookRegistrations.create(${body})`,
  },
  {
    method: "PATCH",
    path: (id) => servicePaths.webhookRegistrationStatus(id),
    call: (id, body) => `webhookRegistrations.updateStatus(${id}, ${body})`,
  },
  {
    method: "DELETE",
    path: (id) => servicePaths.webhookRegistration(id),
    call: (id) => `webhookRegistrations.delete(${id})`,
  },
];

/** Stands for an id while a path of paths.js is turned into a pattern (encodeURIComponent keeps it). */
const ID_MARK = "__id__";

/**
 * The id a path names when it is `template`'s path, "" when it names none, null when it is another path.
 * @param {(id: string) => string} template
 * @param {string} path
 */
function idIn(template, path) {
  const pattern = template(ID_MARK)
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    .replace(ID_MARK, "([^/?]+)");
  const match = new RegExp(`^${pattern}$`).exec(path.split("?")[0] ?? "");
  return match === null ? null : decodeURIComponent(match[1] ?? "");
}

/**
 * The client's call for the request, or null when the client has none (the sandbox's own API).
 * @param {SentRequest} sent
 */
function clientCallOf(sent) {
  for (const entry of CLIENT_CALLS) {
    if (entry.method !== sent.method) continue;
    const id = idIn(entry.path, sent.path);
    if (id === null) continue;
    const body = bodyOf(sent);
    return entry.call(JSON.stringify(id), body === undefined ? "" : literal(body));
  }
  return null;
}

/**
 * A program making the call with the client, constructed as a user constructs it.
 * @param {string} call
 * @param {string} origin
 */
function clientProgram(call, origin) {
  return [
    `import { PortfolioWalletClient } from "${PACKAGE}/client";`,
    "",
    "const client = new PortfolioWalletClient({",
    `  baseUrl: ${JSON.stringify(origin)},`,
    "  apiToken: process.env.API_TOKEN,",
    "});",
    `console.log(await client.${call});`,
    "await client.close();",
  ].join("\n");
}

// ---- Pulumi ----

/** A resource name from a label: lower case words joined by dashes. */
function resourceName(/** @type {unknown} */ label, /** @type {string} */ fallback) {
  const name =
    typeof label === "string"
      ? label
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, "-")
          .replace(/^-|-$/g, "")
      : "";
  return name === "" ? fallback : name.slice(0, 40);
}

/**
 * The program change that does the same, where a resource manages what the request changed.
 * @param {SentRequest} sent
 * @returns {string | null}
 */
function pulumiChangeOf(sent) {
  const body = bodyOf(sent) ?? {};
  /** @param {string} type @param {string} name @param {Record<string, unknown>} args */
  const resource = (type, name, args) =>
    [
      `import { ${type} } from "${PACKAGE}";`,
      "",
      `new ${type}(${JSON.stringify(name)}, ${literal(Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined && v !== null)))});`,
    ].join("\n");
  if (sent.method === "POST" && idIn(() => servicePaths.createWallet, sent.path) !== null)
    return resource("PortfolioWallet", resourceName(body.label, "wallet"), {
      label: body.label,
      positions: body.positions,
    });
  const walletId = sent.method === "PATCH" ? idIn(servicePaths.walletStrategy, sent.path) : null;
  if (walletId !== null)
    return [
      "// Or set these positions on the PortfolioWallet that manages this wallet.",
      resource("WalletStrategy", "wallet-strategy", { walletId, positions: body.positions }),
    ].join("\n");
  if (sent.method === "POST" && idIn(() => servicePaths.createWebhookRegistration, sent.path) !== null)
    return resource("WebhookRegistration", resourceName(body.description, "webhook"), {
      url: body.url,
      eventTypes: body.eventTypes,
      description: body.description,
    });
  const statusOf = sent.method === "PATCH" ? idIn(servicePaths.webhookRegistrationStatus, sent.path) : null;
  if (statusOf !== null)
    return [
      `// On the WebhookRegistration that manages registration ${statusOf}, beside its url and eventTypes:`,
      ...(body.status === "disabled"
        ? [
            "enabled: false,",
            ...(body.disabledReason ? [`disabledReason: ${JSON.stringify(body.disabledReason)},`] : []),
          ]
        : ["enabled: true,"]),
    ].join("\n");
  const deleted = sent.method === "DELETE" ? idIn(servicePaths.webhookRegistration, sent.path) : null;
  if (deleted !== null)
    return `// Remove the WebhookRegistration that manages registration ${deleted} from the program:\n// the next \`pulumi up\` deletes the registration.`;
  return null;
}
