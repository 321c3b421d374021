// Snapshots (docs/sandbox.md "Snapshots"): the whole sandbox saved while requests run and restored,
// into a running sandbox or a new one, with every row equal; an organization exported and imported
// into another sandbox to the micro; and bad or foreign files refused with nothing changed.
import { copyFileSync, mkdirSync, readFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createManualClock } from "../../../sandbox/index.ts";
import { startReceiver, type Receiver } from "./events/harness/receiver.ts";
import {
  ORG,
  OTHER_TOKEN,
  startTestSandbox,
  TOKEN,
  TWO_SOURCES,
  uuid,
  type TestSandbox,
} from "../helpers.ts";
import { DAY_MS, DEPOSIT_DELAY_MS, withdrawBody } from "../moneyHelpers.ts";

const START = "2026-03-01T00:00:00.000Z";
const ADMIN = "snapshot-admin";
const ORG_ADMIN = "org-a-admin";

let dir: string;
let receiver: Receiver;
/** Where the sandboxes' snapshot directory keeps a whole-sandbox snapshot, and an organization's export. */
const file = (name: string) => join(dir, name);
const orgFile = (organizationId: string, name: string) => join(dir, "organizations", organizationId, name);
/** Puts a file where an organization's import reads it, as the sandbox's operator would. */
function handTo(organizationId: string, from: string, name: string): string {
  mkdirSync(join(dir, "organizations", organizationId), { recursive: true });
  copyFileSync(from, orgFile(organizationId, name));
  return orgFile(organizationId, name);
}

/** A sandbox on a manual clock at START, with approvals needed for withdrawals and strategy updates. */
const start = (extra: Parameters<typeof startTestSandbox>[0] = {}) =>
  startTestSandbox({
    clock: createManualClock(new Date(START)),
    snapshotDir: dir,
    adminToken: ADMIN,
    organizationAdminTokens: { [ORG_ADMIN]: ORG },
    depositProcessingDelayMs: DEPOSIT_DELAY_MS,
    allowPrivateWebhookUrls: true,
    policies: {
      "org-a": { strategyUpdateApprovals: 1, withdrawalApprovals: 1 },
      "org-b": { strategyUpdateApprovals: 1, withdrawalApprovals: 1 },
    },
    ...extra,
  });

async function ok(t: TestSandbox, method: string, path: string, body?: unknown, token = TOKEN) {
  const res = await t.api(method, path, {
    token,
    headers: { "x-sandbox-admin-token": ADMIN },
    ...(body === undefined ? {} : { body }),
  });
  expect(res.status, `${method} ${path} ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

/** What one organization holds: funded wallets (yield accrued), a pending withdrawal, a gated update, a webhook. */
async function fill(t: TestSandbox, token = TOKEN) {
  await ok(
    t,
    "POST",
    "/webhooks/registrations",
    { url: receiver.url, eventTypes: ["portfolio_wallet.balance.updated"] },
    token,
  );
  const wallets: string[] = [];
  for (const amount of [1000, 250.5, 77.123456]) {
    const wallet = await ok(
      t,
      "POST",
      "/v2/portfolio-wallets",
      { requestId: uuid(), positions: TWO_SOURCES },
      token,
    );
    await ok(
      t,
      "POST",
      "/_sandbox/deposits",
      {
        chain: "ethereum",
        address: wallet.depositAddresses.ethereum.address,
        amount,
        txHash: `0x${uuid().replaceAll("-", "")}`,
      },
      token,
    );
    wallets.push(wallet.id);
  }
  await ok(t, "POST", "/_sandbox/clock/advance", { ms: 3 * DAY_MS }, token);
  const [first, second] = wallets as [string, string];
  const withdrawal = await ok(t, "POST", `/v2/portfolio-wallets/${first}/withdraw`, withdrawBody(100), token);
  const update = await ok(
    t,
    "PATCH",
    `/v2/portfolio-wallets/${second}/strategy`,
    {
      requestId: uuid(),
      positions: [{ positionKey: "tbills", targetWeightBps: 10000 }],
    },
    token,
  );
  return { wallets, withdrawalPath: `/v2/portfolio-wallets/${first}/withdrawals/${withdrawal.id}`, update };
}

type Filled = Awaited<ReturnType<typeof fill>>;

/** The organization as its API and admin API show it, at the sandbox's current instant. */
async function observe(t: TestSandbox, filled: Filled, token = TOKEN) {
  return {
    clock: await ok(t, "GET", "/_sandbox/clock", undefined, token),
    list: await ok(t, "GET", "/v2/portfolio-wallets?limit=100", undefined, token),
    wallets: await Promise.all(
      filled.wallets.map((id) => ok(t, "GET", `/v2/portfolio-wallets/${id}`, undefined, token)),
    ),
    withdrawal: await ok(t, "GET", filled.withdrawalPath, undefined, token),
    update: await ok(t, "GET", `/_sandbox/strategy-updates/${filled.update.id}`, undefined, token),
    activity: await ok(
      t,
      "GET",
      `/_sandbox/signing-activities/${filled.update.signingActivityId}`,
      undefined,
      token,
    ),
    webhooks: await ok(t, "GET", "/webhooks/registrations", undefined, token),
    ledgerEntries: await ok(t, "GET", "/_sandbox/ledger/entries?limit=1000", undefined, token),
    audit: await ok(t, "GET", "/_sandbox/ledger", undefined, token),
    yieldMetrics: await ok(t, "POST", "/v2/portfolio-wallets/yield", {}, token),
  };
}

/** Every row of every table of a snapshot file (marker aside), for row-by-row comparison. */
function rowsOf(path: string): Record<string, unknown[]> {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'portfolio_wallet_snapshot' ORDER BY name",
      )
      .all() as { name: string }[];
    return Object.fromEntries(
      tables.map(({ name }) => [name, db.prepare(`SELECT * FROM "${name}" ORDER BY 1, 2`).all()]),
    );
  } finally {
    db.close();
  }
}

let source: TestSandbox;
let filled: Filled;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "snapshots-test-"));
  receiver = await startReceiver();
  source = await start();
  filled = await fill(source);
});
afterAll(async () => {
  await source.close();
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("whole-sandbox snapshots", () => {
  test("saved while requests run, restored into a new sandbox and a running one: every row and answer equal", async () => {
    const path = file("whole.snapshot");
    // A load of writes and reads while the snapshot is saved; every request is served.
    const load = Array.from({ length: 60 }, (_, i) =>
      i % 2 === 0
        ? source.api("POST", "/v2/portfolio-wallets", {
            body: { requestId: uuid(), positions: TWO_SOURCES },
            token: OTHER_TOKEN,
          })
        : source.api("GET", `/v2/portfolio-wallets/${filled.wallets[0]}`),
    );
    const saved = source.api("POST", "/_sandbox/snapshot/save", {
      body: { file: "whole.snapshot" },
      headers: { "x-sandbox-admin-token": ADMIN },
    });
    const answers = await Promise.all([...load, saved]);
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
    expect((await saved).status).toBe(201);

    const before = await observe(source, filled);
    // The snapshot holds one consistent state: the wallets org-b had at some instant of the load.
    const orgBWallets = (rowsOf(path).wallets as { organization_id: string }[]).filter(
      (w) => w.organization_id === "org-b",
    );
    expect(orgBWallets.length).toBeGreaterThanOrEqual(0);
    expect(orgBWallets.length).toBeLessThanOrEqual(30);

    // A new sandbox from the snapshot.
    const restored = await start({ fromSnapshot: path });
    try {
      const after = await observe(restored, filled);
      expect(after).toEqual(before);
      const again = file("whole-again.snapshot");
      await ok(restored, "POST", "/_sandbox/snapshot/save", { file: "whole-again.snapshot" });
      expect(rowsOf(again)).toEqual(rowsOf(path));
      // The restored pending operations go on: the gated update approved there completes there.
      await ok(restored, "POST", `/_sandbox/signing-activities/${filled.update.signingActivityId}/approve`);
      await ok(restored, "POST", "/_sandbox/clock/advance", { ms: DAY_MS });
      expect((await ok(restored, "GET", `/_sandbox/strategy-updates/${filled.update.id}`)).status).toBe(
        "completed",
      );
      // ... and the source did not change.
      expect(await observe(source, filled)).toEqual(before);
    } finally {
      await restored.close();
    }

    // A running sandbox with other state: the restore replaces all of it.
    const running = await start();
    try {
      const own = await fill(running, OTHER_TOKEN);
      const answer = await ok(running, "POST", "/_sandbox/snapshot/restore", { file: "whole.snapshot" });
      expect(answer.file).toBe(path);
      expect(await observe(running, filled)).toEqual(before);
      expect(
        (await running.api("GET", `/v2/portfolio-wallets/${own.wallets[0]}`, { token: OTHER_TOKEN })).status,
      ).toBe(404);
      const again = file("restored-running.snapshot");
      await ok(running, "POST", "/_sandbox/snapshot/save", { file: "restored-running.snapshot" });
      expect(rowsOf(again)).toEqual(rowsOf(path));
    } finally {
      await running.close();
    }
  });

  test("a restore waits for requests in flight and holds new ones, so none straddles it", async () => {
    const path = "gate.snapshot";
    await ok(source, "POST", "/_sandbox/snapshot/save", { file: path });
    const target = await start();
    try {
      const requests = Array.from({ length: 40 }, () =>
        target.api("POST", "/v2/portfolio-wallets", {
          body: { requestId: uuid(), positions: TWO_SOURCES },
          token: OTHER_TOKEN,
        }),
      );
      const restore = target.api("POST", "/_sandbox/snapshot/restore", {
        body: { file: path },
        headers: { "x-sandbox-admin-token": ADMIN },
      });
      const answers = await Promise.all([...requests, restore]);
      for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
      // Each wallet created is wholly there or wholly gone: the ledger audit balances.
      expect(
        (await ok(target, "GET", "/_sandbox/ledger", undefined, OTHER_TOKEN)).total.discrepancyMicros,
      ).toBe(0);

      // A request held in flight (by a delay fault) is waited for: the restore answers after it.
      await ok(
        target,
        "POST",
        "/_sandbox/faults",
        { method: "GET", path: "/v2/portfolio-wallets", kind: "delay", delayMs: 600, times: 1 },
        OTHER_TOKEN,
      );
      const finished: string[] = [];
      const held = target
        .api("GET", "/v2/portfolio-wallets", { token: OTHER_TOKEN })
        .then((answer) => finished.push(`held ${answer.status}`));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const restored = target
        .api("POST", "/_sandbox/snapshot/restore", {
          body: { file: path },
          headers: { "x-sandbox-admin-token": ADMIN },
        })
        .then((answer) => finished.push(`restore ${answer.status}`));
      await Promise.all([held, restored]);
      expect(finished).toEqual(["held 200", "restore 200"]);
    } finally {
      await target.close();
    }
  });

  test("an organization's admin token may not save or restore the whole sandbox", async () => {
    for (const path of ["/_sandbox/snapshot/save", "/_sandbox/snapshot/restore"]) {
      const res = await source.api("POST", path, {
        body: { file: "never.snapshot" },
        headers: { "x-sandbox-admin-token": ORG_ADMIN },
      });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(
        /needs the sandbox's admin token; the admin token sent is scoped to organization "org-a"/,
      );
    }
  });
});

describe("organization export and import", () => {
  test("an organization imported into another sandbox keeps every balance to the micro", async () => {
    const exported = await ok(source, "POST", "/_sandbox/organization/export", { file: "org-a.export" });
    expect(exported).toMatchObject({
      organizationId: "org-a",
      wallets: 3,
      file: orgFile(ORG, "org-a.export"),
    });
    const path = "org-a.export";
    const before = await observe(source, filled);

    const target = await start();
    try {
      // Org-b reads only its own folder: org-a's export is not there until the operator puts it there.
      const notHanded = await target.api("POST", "/_sandbox/organization/import", {
        body: { file: path },
        token: OTHER_TOKEN,
        headers: { "x-sandbox-admin-token": ADMIN },
      });
      expect(notHanded.status).toBe(400);
      expect(notHanded.body.error.message).toMatch(/no such file/);
      handTo("org-b", orgFile(ORG, path), path);
      // Into org-b of a new sandbox, with org-a's admin token scoped out of it.
      const imported = await ok(target, "POST", "/_sandbox/organization/import", { file: path }, OTHER_TOKEN);
      expect(imported).toMatchObject({ organizationId: "org-b", fromOrganizationId: "org-a", wallets: 3 });
      const after = await observe(target, filled, OTHER_TOKEN);
      expect(after.wallets).toEqual(before.wallets);
      expect(after.list).toEqual(before.list);
      expect(after.withdrawal).toEqual(before.withdrawal);
      expect(after.clock.now).toBe(before.clock.now);
      expect(after.audit.total).toEqual(before.audit.total);
      expect(after.yieldMetrics.global).toEqual(before.yieldMetrics.global);
      expect(after.ledgerEntries.data.length).toBe(before.ledgerEntries.data.length);
      // Not carried: webhook registrations (their receivers are the other sandbox's).
      expect(after.webhooks.data).toEqual([]);

      // Again into the same organization, or into one whose ids exist: refused, nothing changed.
      const again = await target.api("POST", "/_sandbox/organization/import", {
        body: { file: path },
        token: OTHER_TOKEN,
        headers: { "x-sandbox-admin-token": ADMIN },
      });
      expect(again.status).toBe(409);
      expect(again.body.error.message).toMatch(/already has wallets/);
      const clash = await target.api("POST", "/_sandbox/organization/import", {
        body: { file: path },
        headers: { "x-sandbox-admin-token": ADMIN },
      });
      expect(clash.status).toBe(409);
      expect(clash.body.error.message).toMatch(/already exists in this sandbox/);
      expect((await ok(target, "GET", "/v2/portfolio-wallets")).data).toEqual([]);
      expect(await observe(target, filled, OTHER_TOKEN)).toEqual(after);
    } finally {
      await target.close();
    }
  });
});

describe("bad and foreign files are refused and change nothing", () => {
  test("truncated, corrupted, not a snapshot, newer, the other kind, missing", async () => {
    const good = file("good.snapshot");
    await ok(source, "POST", "/_sandbox/snapshot/save", { file: "good.snapshot" });
    await ok(source, "POST", "/_sandbox/organization/export", { file: "kind.export" });
    // An export handed to a whole-sandbox restore, and a snapshot to an organization's import.
    const exportFile = file("kind.export");
    copyFileSync(orgFile(ORG, "kind.export"), exportFile);
    const goodForImport = handTo(ORG, good, "good.snapshot");
    const bytes = readFileSync(good);

    const truncated = file("truncated.snapshot");
    writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const corrupted = file("corrupted.snapshot");
    const damaged = Buffer.from(bytes);
    damaged.fill(0xa5, 4096 * 2, Math.min(damaged.length, 4096 * 8));
    writeFileSync(corrupted, damaged);
    const text = file("notes.txt");
    writeFileSync(text, "not a snapshot\n");
    const plainDatabase = file("plain.sqlite");
    const plain = new DatabaseSync(plainDatabase);
    plain.exec("CREATE TABLE t (x)");
    plain.close();
    const newer = (key: string) => {
      const path = file(`newer-${key}.snapshot`);
      writeFileSync(path, bytes);
      const db = new DatabaseSync(path);
      db.prepare("UPDATE portfolio_wallet_snapshot SET value = '99' WHERE key = ?").run(key);
      db.close();
      return path;
    };

    const cases: { path: string; via: "restore" | "import"; says: RegExp }[] = [
      { path: truncated, via: "restore", says: /is truncated .*save the snapshot again/ },
      { path: corrupted, via: "restore", says: /is corrupted/ },
      { path: text, via: "restore", says: /is not a whole-sandbox snapshot/ },
      { path: plainDatabase, via: "restore", says: /is not a whole-sandbox snapshot/ },
      { path: newer("formatVersion"), via: "restore", says: /written by a newer sandbox .*format 99/ },
      {
        path: newer("schemaVersion"),
        via: "restore",
        says: /written by a newer sandbox .*schema version 99/,
      },
      {
        path: exportFile,
        via: "restore",
        says: /is an organization export, not a whole-sandbox snapshot: import it/,
      },
      {
        path: goodForImport,
        via: "import",
        says: /is a whole-sandbox snapshot, not an organization export: restore it/,
      },
      { path: handTo(ORG, truncated, "truncated.snapshot"), via: "import", says: /is truncated/ },
      { path: file("missing.snapshot"), via: "restore", says: /no such file/ },
    ];
    const target = await start();
    try {
      const own = await fill(target, OTHER_TOKEN);
      const before = await observe(target, own, OTHER_TOKEN);
      const savedBefore = file("target-before.snapshot");
      await ok(target, "POST", "/_sandbox/snapshot/save", { file: "target-before.snapshot" });
      for (const { path, via, says } of cases) {
        const res = await target.api(
          "POST",
          via === "restore" ? "/_sandbox/snapshot/restore" : "/_sandbox/organization/import",
          {
            body: { file: basename(path) },
            headers: { "x-sandbox-admin-token": ADMIN },
          },
        );
        expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body.error.details).toEqual([expect.objectContaining({ field: "file" })]);
        expect(res.body.error.message).toContain(path);
        expect(res.body.error.message).toMatch(says);
        expect(await observe(target, own, OTHER_TOKEN), path).toEqual(before);
        const savedAfter = file(`target-after-${uuid()}.snapshot`);
        await ok(target, "POST", "/_sandbox/snapshot/save", { file: basename(savedAfter) });
        expect(rowsOf(savedAfter), path).toEqual(rowsOf(savedBefore));
      }
      // Anything but a plain name (a path, a way out of the directory): refused before any file is touched.
      for (const name of ["/tmp/x.snapshot", "../x.snapshot", "sub/x.snapshot", ".hidden", ""]) {
        const res = await target.api("POST", "/_sandbox/snapshot/save", {
          body: { file: name },
          headers: { "x-sandbox-admin-token": ADMIN },
        });
        expect(res.status, name).toBe(400);
        expect(res.body.error.message, name).toMatch(/file: must be a file name .*snapshot directory/);
      }
      const existing = await target.api("POST", "/_sandbox/snapshot/save", {
        body: { file: "good.snapshot" },
        headers: { "x-sandbox-admin-token": ADMIN },
      });
      expect(existing.status).toBe(400);
      expect(existing.body.error.message).toMatch(/a file is already there/);
      expect(readFileSync(good)).toEqual(bytes);
    } finally {
      await target.close();
    }
    // A sandbox that keeps its data in memory has no snapshot directory unless given one.
    const inMemory = await start({ snapshotDir: undefined });
    try {
      const res = await inMemory.api("POST", "/_sandbox/snapshot/save", {
        body: { file: "x.snapshot" },
        headers: { "x-sandbox-admin-token": ADMIN },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/no snapshot directory: start it with --snapshot-dir/);
    } finally {
      await inMemory.close();
    }
    // Startup from a bad file refuses to start.
    await expect(start({ fromSnapshot: truncated })).rejects.toThrow(/is truncated/);
  });
});

describe("snapshot files by name: listed, read, and what a restore replaced (the console's calls)", () => {
  test("lists and reads each kind in its own folder only, by name, and a restore says what it replaced", async () => {
    const own = join(dir, "listing");
    const t = await start({ snapshotDir: own });
    try {
      const asAdmin = { "x-sandbox-admin-token": ADMIN };
      expect(await ok(t, "GET", "/_sandbox/snapshots")).toEqual({ hasSnapshotDirectory: true, files: [] });
      await ok(t, "POST", "/v2/portfolio-wallets", { requestId: uuid(), positions: TWO_SOURCES });
      const saved = await ok(t, "POST", "/_sandbox/snapshot/save", { file: "one-wallet.snapshot" });
      const exported = await ok(t, "POST", "/_sandbox/organization/export", { file: "org-a.export" });
      // Beside the snapshot: a file that is none, and an export out of its folder.
      writeFileSync(join(own, "notes.txt"), "not a snapshot");
      copyFileSync(exported.file, join(own, "stray.export"));

      const listed = await ok(t, "GET", "/_sandbox/snapshots");
      expect(listed).toEqual({
        hasSnapshotDirectory: true,
        files: [
          {
            file: "one-wallet.snapshot",
            savedAt: saved.savedAt,
            bytes: readFileSync(join(own, "one-wallet.snapshot")).length,
          },
        ],
      });
      const read = await ok(t, "GET", "/_sandbox/snapshots/one-wallet.snapshot");
      expect(Buffer.from(read.contentBase64, "base64")).toEqual(
        readFileSync(join(own, "one-wallet.snapshot")),
      );
      expect(read).toMatchObject({ file: "one-wallet.snapshot", savedAt: saved.savedAt });
      expect(JSON.stringify(listed) + JSON.stringify({ ...read, contentBase64: "" })).not.toContain(own);

      // Only snapshot files of the folder, by name: other files, paths and missing names are refused.
      const notOne = await t.api("GET", "/_sandbox/snapshots/notes.txt", { headers: asAdmin });
      expect(notOne.status).toBe(400);
      expect(notOne.body.error.details).toEqual([
        { field: "file", reason: expect.stringMatching(/^notes\.txt is not a whole-sandbox snapshot/) },
      ]);
      const otherKind = await t.api("GET", "/_sandbox/snapshots/stray.export", { headers: asAdmin });
      expect(otherKind.status).toBe(400);
      expect(otherKind.body.error.details[0].reason).toMatch(
        /is an organization export, not a whole-sandbox snapshot/,
      );
      expect(JSON.stringify(notOne.body) + JSON.stringify(otherKind.body)).not.toContain(own);
      const missing = await t.api("GET", "/_sandbox/snapshots/nothing.snapshot", { headers: asAdmin });
      expect(missing.status).toBe(404);
      for (const name of ["..%2Fsandbox.sqlite", "%2Fetc%2Fpasswd", ".hidden"]) {
        const refused = await t.api("GET", `/_sandbox/snapshots/${name}`, { headers: asAdmin });
        expect(refused.status, name).toBe(400);
        expect(refused.body.error.details[0].field, name).toBe("file");
      }
      // Whole-sandbox files are the sandbox's admin's: an organization's admin token is refused.
      for (const path of ["/_sandbox/snapshots", "/_sandbox/snapshots/one-wallet.snapshot"]) {
        const refused = await t.api("GET", path, { headers: { "x-sandbox-admin-token": ORG_ADMIN } });
        expect(refused.status, path).toBe(403);
      }

      // An organization lists and reads its own exports, with its own admin token too; another sees none.
      const orgAdmin = { "x-sandbox-admin-token": ORG_ADMIN };
      const exports = await t.api("GET", "/_sandbox/organization/exports", { headers: orgAdmin });
      expect(exports.body).toEqual({
        hasSnapshotDirectory: true,
        files: [
          { file: "org-a.export", savedAt: expect.any(String), bytes: readFileSync(exported.file).length },
        ],
      });
      const exportRead = await t.api("GET", "/_sandbox/organization/exports/org-a.export", {
        headers: orgAdmin,
      });
      expect(Buffer.from(exportRead.body.contentBase64, "base64")).toEqual(readFileSync(exported.file));
      expect(await ok(t, "GET", "/_sandbox/organization/exports", undefined, OTHER_TOKEN)).toEqual({
        hasSnapshotDirectory: true,
        files: [],
      });
      const theirs = await t.api("GET", "/_sandbox/organization/exports/org-a.export", {
        token: OTHER_TOKEN,
        headers: asAdmin,
      });
      expect(theirs.status).toBe(404);

      // A restore says what the sandbox held before it (gone now) and after.
      await ok(
        t,
        "POST",
        "/v2/portfolio-wallets",
        { requestId: uuid(), positions: TWO_SOURCES },
        OTHER_TOKEN,
      );
      const restored = await ok(t, "POST", "/_sandbox/snapshot/restore", { file: "one-wallet.snapshot" });
      expect(restored).toMatchObject({
        savedAt: saved.savedAt,
        replaced: { organizations: 2, wallets: 2 },
        restored: { organizations: 1, wallets: 1 },
      });
    } finally {
      await t.close();
    }

    // A sandbox keeping its data in memory lists no file and says why when asked for one.
    const inMemory = await start({ snapshotDir: undefined });
    try {
      expect(await ok(inMemory, "GET", "/_sandbox/snapshots")).toEqual({
        hasSnapshotDirectory: false,
        files: [],
      });
      expect(await ok(inMemory, "GET", "/_sandbox/organization/exports")).toEqual({
        hasSnapshotDirectory: false,
        files: [],
      });
      const res = await inMemory.api("GET", "/_sandbox/snapshots/x.snapshot", {
        headers: { "x-sandbox-admin-token": ADMIN },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/no snapshot directory: start it with --snapshot-dir/);
    } finally {
      await inMemory.close();
    }
  });
});
