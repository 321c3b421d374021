// @ts-check
// Simulate a deposit: as if stablecoins had arrived on chain at a wallet's deposit address
// (POST /_sandbox/deposits). On the controls page for any wallet; on a wallet's page for that one.
import { request } from "../../api.js";
import { fieldValue, h } from "../../dom.js";
import {
  randomTransactionHash,
  transactionHashProblem,
} from "../../../../../../sdk/nodejs/contract/chainAddress.ts";
import { usd, walletName } from "../../format.js";
import { RefusedInPage } from "../../requestLog.js";
import { actionForm, field } from "./forms.js";
import { sandboxPaths } from "../../paths.js";

/** @typedef {import("../../../../../../sdk/nodejs/contract/wallet.ts").KnownChain} KnownChain */

/** A transaction hash in the chain's form, unlikely to repeat: the sandbox credits each (chain, txHash) once. */
const freshTxHash = (/** @type {string} */ chain) =>
  randomTransactionHash(/** @type {KnownChain} */ (chain), (bytes) => crypto.getRandomValues(bytes));

/**
 * @param {import("../../payloads.js").PortfolioWallet[]} wallets the wallets to choose from (one: the form is for that wallet)
 * @param {{ selected?: string | null, idPrefix: string, after: () => void }} options
 */
export function depositForm(wallets, options) {
  const { idPrefix } = options;
  const walletSelect = h(
    "select",
    { name: "wallet" },
    wallets.map((wallet) =>
      h("option", { value: wallet.id, selected: wallet.id === options.selected }, walletName(wallet)),
    ),
  );
  // The hash is judged against the chain: another chain makes a refusal of it stale.
  const chainSelect = h("select", { name: "chain", "data-api-field": "chain", "data-stale-field": "txHash" });
  const address = h("input", {
    name: "address",
    type: "text",
    readonly: true,
    class: "mono",
    "data-api-field": "address",
  });
  const syncAddress = () => {
    const wallet = wallets.find((candidate) => candidate.id === walletSelect.value);
    const chains = Object.keys(wallet?.depositAddresses ?? {});
    if (!chains.includes(chainSelect.value))
      chainSelect.replaceChildren(...chains.map((chain) => h("option", { value: chain }, chain)));
    address.value = String(wallet?.depositAddresses?.[chainSelect.value]?.address ?? "");
  };
  walletSelect.addEventListener("change", syncAddress);
  syncAddress();
  let generatedTxHash = freshTxHash(chainSelect.value);
  const txHash = h("input", {
    name: "txHash",
    type: "text",
    value: generatedTxHash,
    class: "mono",
    spellcheck: "false",
    "data-api-field": "txHash",
  });
  const renewTxHash = () => {
    generatedTxHash = freshTxHash(chainSelect.value);
    txHash.value = generatedTxHash;
  };
  chainSelect.addEventListener("change", () => {
    syncAddress();
    // The hash made here follows the chain's form; one typed stays, and is checked as sent.
    if (txHash.value === generatedTxHash) renewTxHash();
  });
  return actionForm(
    "Simulate deposit",
    [
      wallets.length === 1
        ? h("input", { type: "hidden", name: "wallet", value: wallets[0]?.id ?? "" })
        : field(`${idPrefix}-wallet`, "Wallet", walletSelect),
      field(`${idPrefix}-chain`, "Chain", chainSelect),
      h("div", { class: "span-all" }, field(`${idPrefix}-address`, "Deposit address", address)),
      field(
        `${idPrefix}-amount`,
        "Amount (USD)",
        h("input", {
          name: "amount",
          type: "number",
          min: "0.000001",
          step: "0.000001",
          value: 1000,
          inputmode: "decimal",
          required: true,
          "data-api-field": "amount",
        }),
      ),
      field(
        `${idPrefix}-tx`,
        "Transaction hash",
        txHash,
        "One deposit per chain and hash: 0x and 64 hex digits on EVM chains, a base58 signature on Solana.",
      ),
    ],
    async (current, call) => {
      const chain = fieldValue(current, "chain");
      const hashProblem = transactionHashProblem(
        /** @type {KnownChain} */ (chain),
        fieldValue(current, "txHash"),
      );
      if (hashProblem !== null)
        throw new RefusedInPage(`Not sent: Transaction hash ${hashProblem}.`, [
          { field: "txHash", reason: hashProblem },
        ]);
      const { body } = await call(
        request("POST", sandboxPaths.deposits, {
          admin: true,
          body: {
            chain,
            address: fieldValue(current, "address"),
            amount: Number(fieldValue(current, "amount")),
            txHash: fieldValue(current, "txHash"),
          },
        }),
      );
      renewTxHash();
      // No status here: this line stays while the deposit moves on, and its status is on the
      // wallet's Deposits tab, which follows it.
      return `Deposit detected: ${usd(body?.amountUsd)}. It is invested by target weight after the deposit processing delay (advance the clock by 1 second to skip it); the wallet's Deposits tab follows its legs.`;
    },
    options.after,
    `${idPrefix}-form`,
  );
}

/**
 * "Simulate a deposit" on a wallet's own page: a disclosure holding the form for that wallet, so
 * the deposit is made, and its effect watched, without leaving the page.
 * @param {string} idPrefix
 * @param {() => void} after
 */
export function walletDepositControl(idPrefix, after) {
  const body = h("div", { class: "inline-control-body" });
  const element = h(
    "details",
    { class: "inline-control", "data-control": "deposit" },
    h("summary", { class: "button small" }, "Simulate a deposit"),
    body,
  );
  let built = false;
  return {
    element,
    /** @param {import("../../payloads.js").PortfolioWallet} wallet the wallet as last read (its deposit addresses) */
    update(wallet) {
      if (built || Object.keys(wallet?.depositAddresses ?? {}).length === 0) return;
      built = true;
      body.append(
        h("p", { class: "hint" }, "As if stablecoins had arrived on chain at this wallet's deposit address."),
        depositForm([wallet], { selected: wallet.id, idPrefix, after }),
      );
    },
  };
}
