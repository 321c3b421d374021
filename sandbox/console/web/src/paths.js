// @ts-check
// Every path the console calls, written once: the service's own API (spec 4), the signing provider's
// endpoints the sandbox serves (docs/approvals.md), the admin API (docs/sandbox.md "Admin API") and
// the console's read API (docs/sandbox.md "Console API"). The views ask for a path here, never
// write one; test/sandbox/console/paths.test.ts holds them to it, and holds every service and signing path
// here to an operation of the contract's tables (the tables carry zod schemas, which the browser
// bundle leaves out, so the paths cannot be read from them here).

/** @param {string} segment */
const seg = (segment) => encodeURIComponent(segment);

/** @param {Record<string, string | number | undefined>} query */
const withQuery = (query) => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
};

const WALLETS = "/v2/portfolio-wallets";
const REGISTRATIONS = "/webhooks/registrations";

/** The service's API (sdk/nodejs/contract/operations.ts), called with the API token. */
export const servicePaths = {
  /** @param {{ pageSize?: number, cursor?: string }} query */
  wallets: (query) => `${WALLETS}${withQuery(query)}`,
  createWallet: WALLETS,
  strategies: `${WALLETS}/strategies`,
  yieldMetrics: `${WALLETS}/yield`,
  /** @param {string} walletId */
  wallet: (walletId) => `${WALLETS}/${seg(walletId)}`,
  /** @param {string} walletId */
  walletStrategy: (walletId) => `${WALLETS}/${seg(walletId)}/strategy`,
  /** @param {string} walletId */
  walletWithdraw: (walletId) => `${WALLETS}/${seg(walletId)}/withdraw`,
  /** The withdraw call as a fault's path pattern (the admin API's `:param` form): the arm-fault form's default. */
  walletWithdrawPattern: `${WALLETS}/:id/withdraw`,
  /** @param {{ pageSize?: number, cursor?: string }} query */
  webhookRegistrations: (query) => `${REGISTRATIONS}${withQuery(query)}`,
  createWebhookRegistration: REGISTRATIONS,
  /** @param {string} registrationId */
  webhookRegistration: (registrationId) => `${REGISTRATIONS}/${seg(registrationId)}`,
  /** @param {string} registrationId */
  webhookRegistrationStatus: (registrationId) => `${REGISTRATIONS}/${seg(registrationId)}/status`,
};

/** The signing provider's endpoints (sdk/nodejs/contract/signingProvider.ts), called with a stamp. */
export const signingPaths = {
  getActivity: "/public/v1/query/get_activity",
  /** @param {"approve" | "reject"} decision */
  vote: (decision) => `/public/v1/submit/${decision}_activity`,
};

/** The admin API: sandbox controls, called with the admin token. */
export const sandboxPaths = {
  adminScope: "/_sandbox/admin-scope",
  clock: "/_sandbox/clock",
  clockAdvance: "/_sandbox/clock/advance",
  deposits: "/_sandbox/deposits",
  policy: "/_sandbox/policy",
  faults: "/_sandbox/faults",
  strategyUpdateFault: "/_sandbox/faults/strategy-update",
  withdrawalLegFault: "/_sandbox/faults/withdrawal-leg",
  /** @param {string} faultId */
  fault: (faultId) => `/_sandbox/faults/${seg(faultId)}`,
  /** @param {string} positionKey */
  catalogRate: (positionKey) => `/_sandbox/catalog/${seg(positionKey)}/rate`,
  snapshots: "/_sandbox/snapshots",
  /** @param {string} file a file name of the snapshot directory */
  snapshot: (file) => `/_sandbox/snapshots/${seg(file)}`,
  snapshotSave: "/_sandbox/snapshot/save",
  snapshotRestore: "/_sandbox/snapshot/restore",
  organizationExports: "/_sandbox/organization/exports",
  /** @param {string} file a file name of the organization's folder */
  organizationExportFile: (file) => `/_sandbox/organization/exports/${seg(file)}`,
  organizationExport: "/_sandbox/organization/export",
  organizationImport: "/_sandbox/organization/import",
  signingApiKeys: "/_sandbox/signing/api-keys",
  /** @param {string} publicKey */
  signingApiKey: (publicKey) => `/_sandbox/signing/api-keys/${seg(publicKey)}`,
};

const INBOXES = "/_sandbox/inboxes";

/** The webhook inboxes the sandbox hosts (docs/sandbox.md "Webhook inboxes"), called with the API token alone. */
export const inboxPaths = {
  inboxes: INBOXES,
  /** @param {string} name GET it, PUT its answer */
  inbox: (name) => `${INBOXES}/${seg(name)}`,
  /** @param {string} name @param {{ limit?: number }} query GET them, DELETE to forget them */
  deliveries: (name, query) => `${INBOXES}/${seg(name)}/deliveries${withQuery(query)}`,
  /** @param {string} name @param {string} id */
  delivery: (name, id) => `${INBOXES}/${seg(name)}/deliveries/${seg(id)}`,
};

const CONSOLE_API = "/_console/api";

/** The console's read API, called with the API token. */
export const consolePaths = {
  session: `${CONSOLE_API}/session`,
  /** @param {{ status?: "pending" | "all", limit?: number }} query */
  signingActivities: (query) => `${CONSOLE_API}/signing-activities${withQuery(query)}`,
  /** @param {string} walletId @param {{ limit?: number }} query */
  walletStrategyUpdates: (walletId, query) =>
    `${CONSOLE_API}/wallets/${seg(walletId)}/strategy-updates${withQuery(query)}`,
  /** @param {string} walletId */
  walletHistory: (walletId) => `${CONSOLE_API}/wallets/${seg(walletId)}/history`,
  /** @param {string} walletId @param {{ pageSize?: number, cursor?: string }} query */
  walletDeposits: (walletId, query) => `${CONSOLE_API}/wallets/${seg(walletId)}/deposits${withQuery(query)}`,
  /** @param {string} walletId @param {{ pageSize?: number, cursor?: string }} query */
  walletWithdrawals: (walletId, query) =>
    `${CONSOLE_API}/wallets/${seg(walletId)}/withdrawals${withQuery(query)}`,
  /** @param {string} walletId @param {{ from: string, to: string }} period ISO date-times, (from, to] */
  walletStatement: (walletId, period) =>
    `${CONSOLE_API}/wallets/${seg(walletId)}/statement${withQuery(period)}`,
  /** @param {Record<string, string | number | undefined>} query status, registrationId, eventType, limit */
  webhookDeliveries: (query) => `${CONSOLE_API}/webhook-deliveries${withQuery(query)}`,
  /** @param {string} deliveryId */
  webhookDelivery: (deliveryId) => `${CONSOLE_API}/webhook-deliveries/${seg(deliveryId)}`,
  /** @param {string} deliveryId */
  redeliver: (deliveryId) => `${CONSOLE_API}/webhook-deliveries/${seg(deliveryId)}/redeliver`,
  /** @param {Record<string, string | number | undefined>} query method, status, walletId, requestId, actionId, limit */
  requests: (query) => `${CONSOLE_API}/requests${withQuery(query)}`,
  /** @param {string} id any id: what it names in the organization */
  findId: (id) => `${CONSOLE_API}/ids/${seg(id)}`,
  /** @param {string} id any id: its object's page (the object, its timeline, what it relates to) */
  objectPage: (id) => `${CONSOLE_API}/objects/${seg(id)}`,
  /** @param {string} requestId */
  request: (requestId) => `${CONSOLE_API}/requests/${seg(requestId)}`,
  /** @param {string} registrationId PATCH: edit its URL, event types, description */
  webhookRegistration: (registrationId) => `${CONSOLE_API}/webhook-registrations/${seg(registrationId)}`,
  /** @param {string} registrationId */
  webhookTestEvents: (registrationId) =>
    `${CONSOLE_API}/webhook-registrations/${seg(registrationId)}/test-events`,
};
