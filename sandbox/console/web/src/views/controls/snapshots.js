// @ts-check
// Test data kept in files (docs/sandbox.md "Snapshots"): whole-sandbox snapshots saved, listed,
// restored and downloaded, and this organization's exports made, listed, imported and downloaded.
// Every file is named by its name in the sandbox's snapshot directory, never a path, and the
// admin API's scopes hold: a whole-sandbox snapshot is the sandbox's admin token's only.
import { request } from "../../api.js";
import { confirmAction } from "../../confirm.js";
import { fieldValue, fill, h, table } from "../../dom.js";
import { when } from "../../format.js";
import { sandboxPaths } from "../../paths.js";
import { requestLog, runLogged } from "../../requestLog.js";
import { session } from "../../session.js";
import { field } from "./forms.js";

/** @typedef {import("../../payloads.js").SnapshotFileList} SnapshotFileList */
/** @typedef {import("../../payloads.js").SnapshotFileEntry} SnapshotFileEntry */

/** A file's size as people read it. */
function size(/** @type {number} */ bytes) {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** @param {{ organizations: number, wallets: number } | undefined} counts */
function holding(counts) {
  if (counts === undefined) return "nothing counted";
  const wallets = `${counts.wallets} wallet${counts.wallets === 1 ? "" : "s"}`;
  return `${wallets} in ${counts.organizations} organization${counts.organizations === 1 ? "" : "s"}`;
}

/** A field across the form's columns: a file name is long. */
function wide(/** @type {HTMLElement} */ element) {
  element.classList.add("span-all");
  return element;
}

/** A default file name: the kind and the moment, so two saves never ask for the same name. */
const defaultName = (/** @type {string} */ kind) =>
  `${kind}-${new Date().toISOString().slice(0, 19).replaceAll(":", "-")}.${kind === "treasury" ? "snapshot" : "export"}`;

/**
 * Saves a file's bytes from the browser, as a download named after it. The bytes came in an
 * answer to a request with the tokens in its headers, so no URL ever carries a token.
 * @param {string} file
 * @param {string} base64
 */
function download(file, base64) {
  const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: "application/vnd.sqlite3" }));
  const anchor = h("a", { href: url, download: file, hidden: true });
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // After the click has started the download: the browser keeps what it already reads.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** How long a snapshot call may take: a big sandbox's backup, or a restore's copy, takes seconds. */
const SNAPSHOT_TIMEOUT_MS = 120_000;

/**
 * Every snapshot call names its file and nothing else: `{ file }` to one of them, answered as sent.
 * @param {import("./forms.js").Call} call
 * @param {string} path
 * @param {string} file
 */
async function sendFile(call, path, file) {
  // Copying a whole sandbox's database takes longer than the console's usual wait: a longer one,
  // so that a save or restore still running is not reported as not applied.
  const { body } = await call(
    request("POST", path, { admin: true, body: { file }, timeoutMs: SNAPSHOT_TIMEOUT_MS }),
  );
  return body;
}

/**
 * One kind of file: a form that writes one, the list of those there, and what each row offers.
 * @param {{
 *   id: string,
 *   title: string,
 *   hint: string,
 *   listPath: string,
 *   filePath: (file: string) => string,
 *   writeLabel: string,
 *   writePath: string,
 *   wrote: (file: string, answer: any) => string,
 *   useLabel: string,
 *   confirmUse?: (entry: SnapshotFileEntry) => Promise<boolean>,
 *   usePath: string,
 *   used: (entry: SnapshotFileEntry, answer: any) => string,
 *   after: () => void,
 * }} spec
 */
function fileSection(spec) {
  const log = requestLog(`${spec.title}: result`);
  const list = h("div", { class: "region", "aria-live": "polite" });
  const status = h("p", { class: "hint", role: "status" });
  const input = h("input", {
    name: "file",
    "data-api-field": "file",
    autocomplete: "off",
    spellcheck: "false",
    maxlength: 200,
    required: true,
  });
  const submit = h("button", { type: "submit", class: "button primary" }, spec.writeLabel);
  const form = h(
    "form",
    { class: "form-grid", id: `${spec.id}-form` },
    wide(
      field(
        `${spec.id}-file`,
        "File name",
        input,
        "Letters, digits, '.', '_' and '-': the file lies in the sandbox's snapshot directory; an existing file is never overwritten.",
      ),
    ),
    h("div", { class: "form-actions span-all" }, submit),
  );
  input.value = defaultName(spec.id === "snapshot" ? "treasury" : "organization");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    submit.disabled = true;
    const file = fieldValue(form, "file").trim();
    const ok = await runLogged(
      log,
      async (call) => spec.wrote(file, await sendFile(call, spec.writePath, file)),
      {
        form,
      },
    );
    submit.disabled = false;
    if (ok) input.value = defaultName(spec.id === "snapshot" ? "treasury" : "organization");
    await refresh();
    spec.after();
  });

  /** @param {SnapshotFileEntry} entry */
  async function fetchFile(entry) {
    status.textContent = `Reading ${entry.file}…`;
    try {
      // A file is checked, maybe migrated and sent whole: as long a wait as a save.
      const { body } = await request("GET", spec.filePath(entry.file), {
        admin: true,
        timeoutMs: SNAPSHOT_TIMEOUT_MS,
      });
      download(entry.file, String(body?.contentBase64 ?? ""));
      status.textContent = `Downloaded ${entry.file} (${size(Number(body?.bytes ?? 0))}).`;
    } catch (error) {
      status.textContent = error instanceof Error ? error.message : String(error);
    }
  }

  /** @param {SnapshotFileEntry} entry */
  async function useFile(entry) {
    if (spec.confirmUse !== undefined && !(await spec.confirmUse(entry))) return;
    await runLogged(log, async (call) => spec.used(entry, await sendFile(call, spec.usePath, entry.file)));
    await refresh();
    spec.after();
  }

  async function refresh() {
    /** @type {SnapshotFileList} */
    let answer;
    try {
      ({ body: answer } = await request("GET", spec.listPath, { admin: true }));
    } catch (error) {
      form.hidden = true;
      fill(list, h("p", { class: "muted" }, error instanceof Error ? error.message : String(error)));
      return;
    }
    if (!answer.hasSnapshotDirectory) {
      form.hidden = true;
      fill(
        list,
        h(
          "p",
          { class: "notice" },
          "This sandbox keeps its data in memory and has no snapshot directory, so it can save, export and restore nothing. Start it with ",
          h("code", {}, "--snapshot-dir <dir>"),
          " (or SANDBOX_SNAPSHOT_DIR), or with ",
          h("code", {}, "--data <dir>"),
          ", to keep files.",
        ),
      );
      return;
    }
    form.hidden = false;
    if (answer.files.length === 0) {
      fill(list, h("p", { class: "muted" }, "No file yet."));
      return;
    }
    fill(
      list,
      table({
        caption: `${spec.title}: files`,
        captionHidden: true,
        // A file is dated on the shared clock, which organizations' own clocks lead (docs/sandbox.md),
        // so it can read days before the header's time: say which clock.
        columns: ["File", "Written (shared sandbox clock)", "Size", ""],
        rowAttrs: (index) => ({ "data-file": answer.files[index]?.file ?? null }),
        rows: answer.files.map((entry) => {
          const getIt = h(
            "button",
            { type: "button", class: "button small", "aria-label": `Download ${entry.file}` },
            "Download",
          );
          getIt.addEventListener("click", () => void fetchFile(entry));
          const useIt = h(
            "button",
            { type: "button", class: "button small", "aria-label": `${spec.useLabel} ${entry.file}` },
            spec.useLabel,
          );
          useIt.addEventListener("click", () => void useFile(entry));
          return [
            h("code", {}, entry.file),
            when(entry.savedAt),
            size(entry.bytes),
            h("div", { class: "row-actions" }, getIt, useIt),
          ];
        }),
      }),
    );
  }

  void refresh();
  return h(
    "div",
    { class: "stack", id: `${spec.id}-files` },
    h("h3", {}, spec.title),
    h("p", { class: "hint" }, spec.hint),
    form,
    list,
    status,
    log.element,
  );
}

/**
 * The snapshots card: the whole sandbox's files (unless the admin token is an organization's,
 * which the sandbox refuses for them) and this organization's.
 * @param {() => void} after reads the page again (a restore or an import changes everything)
 */
export function snapshotControls(after) {
  const organizationOnly = session()?.adminScope === "organization";
  const wholeSandbox = organizationOnly
    ? h(
        "div",
        { class: "stack", id: "snapshot-files" },
        h("h3", {}, "Whole sandbox"),
        h(
          "p",
          { class: "notice" },
          "Whole-sandbox snapshots hold every organization's state, so they need the sandbox's admin token; the admin token given is this organization's. Export and import this organization below.",
        ),
      )
    : fileSection({
        id: "snapshot",
        title: "Whole sandbox",
        hint: "Every organization's state: wallets, deposits, withdrawals, strategy updates, approvals, webhooks and the clock.",
        listPath: sandboxPaths.snapshots,
        filePath: sandboxPaths.snapshot,
        writeLabel: "Save snapshot",
        writePath: sandboxPaths.snapshotSave,
        wrote: (file, body) =>
          `Saved the whole sandbox as ${file} (at ${when(String(body?.savedAt))} on the shared sandbox clock).`,
        useLabel: "Restore",
        confirmUse: async (entry) => {
          const confirmed = await confirmAction({
            title: `Restore ${entry.file}?`,
            message: [
              h(
                "p",
                {},
                `This replaces the state of every organization of this sandbox with the snapshot's, saved at ${when(entry.savedAt)} (shared sandbox clock): wallets, deposits, withdrawals, strategy updates, approvals, webhooks and the clock.`,
              ),
              h("p", {}, "What is there now is lost unless saved first; armed faults are disarmed."),
            ],
            confirmLabel: "Restore",
            danger: true,
          });
          return confirmed !== null;
        },
        usePath: sandboxPaths.snapshotRestore,
        used: (entry, body) =>
          `Restored ${entry.file}, saved at ${when(String(body?.savedAt))}: it replaced ${holding(body?.replaced)} with the snapshot's ${holding(body?.restored)}. Armed faults were disarmed.`,
        after,
      });
  const organization = fileSection({
    id: "export",
    title: "This organization",
    hint: "This organization's wallets, balances and history, to import into an organization without wallets, of this sandbox or another (webhooks, approver keys and the policy stay behind).",
    listPath: sandboxPaths.organizationExports,
    filePath: sandboxPaths.organizationExportFile,
    writeLabel: "Export organization",
    writePath: sandboxPaths.organizationExport,
    wrote: (file, body) =>
      `Exported this organization as ${file}: ${body?.wallets} wallet(s), ${body?.ledgerEntries} ledger entries.`,
    useLabel: "Import",
    usePath: sandboxPaths.organizationImport,
    used: (entry, body) =>
      `Imported ${entry.file} into this organization: ${body?.wallets} wallet(s), ${body?.ledgerEntries} ledger entries, exported from organization ${body?.fromOrganizationId}.`,
    after,
  });
  return [
    h(
      "p",
      { class: "hint" },
      "Files on the sandbox's host, in its snapshot directory, named by file name only. Download keeps a copy in your browser's downloads.",
    ),
    h("div", { class: "grid two" }, wholeSandbox, organization),
  ];
}
