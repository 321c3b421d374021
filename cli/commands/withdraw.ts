import { Command } from "commander";
import type { Withdrawal } from "../../sdk/nodejs/contract/index.ts";
import { durationInWords, formatDollars, usdToMicros } from "../../sdk/nodejs/contract/index.ts";
import type { PortfolioWalletClient } from "../../sdk/nodejs/client/index.ts";
import { withdrawalRequestId } from "../../sdk/nodejs/client/requestIds.ts";
import { waitsWithin } from "../../sdk/nodejs/client/boundedWaits.ts";
import { secondsText } from "../../sdk/nodejs/retryWording.ts";
import { positiveAmount, uuid, wholeNumber } from "../flagValues.ts";
import { fields, printResult, table } from "../output.ts";
import { progressOn } from "../progress.ts";
import { globalOptionsOf, withServiceClient } from "../serviceSettings.ts";

interface WithdrawFlags {
  wallet: string;
  amount: number;
  chain: string;
  token: string;
  address: string;
  requestId?: string;
  wait?: boolean;
  timeout: number;
}

const FINAL = new Set(["completed", "failed"]);

/** `instant completed, redeem processing`: each payout leg and its status. */
export function legsText(withdrawal: Withdrawal): string {
  const legs = Object.entries(withdrawal.legStatuses ?? {});
  if (legs.length === 0) return "no payout legs yet";
  return legs.map(([leg, status]) => `${leg} ${status}`).join(", ");
}

export function withdrawalFields(withdrawal: Withdrawal): string {
  const payouts = withdrawal.payouts ?? [];
  return [
    fields([
      ["withdrawal", withdrawal.id],
      ["requestId", withdrawal.requestId],
      ["wallet", withdrawal.portfolioWalletId],
      ["status", withdrawal.status],
      ["amount", formatDollars(usdToMicros(withdrawal.withdrawalAmount))],
      [
        "to",
        `${withdrawal.destinationToken} on ${withdrawal.destinationChain}, ${withdrawal.destinationAddress}`,
      ],
      ["created", withdrawal.createdAt],
      ["completed", withdrawal.completedAt ?? null],
      ["signing activity", withdrawal.signingActivityId ?? null],
      ["failure", withdrawal.failureReason ?? null],
    ]),
    "",
    payouts.length > 0
      ? table(payouts, [
          { title: "leg", value: (p) => p.legKey },
          { title: "amount", value: (p) => formatDollars(usdToMicros(p.amount)), right: true },
          { title: "status", value: (p) => p.status },
        ])
      : table(withdrawal.plannedLegs ?? [], [
          { title: "planned leg", value: (p) => p.legKey },
          { title: "amount", value: (p) => formatDollars(usdToMicros(p.amount)), right: true },
          {
            title: "arrives",
            value: (p) => (p.maxProcessingTime === undefined ? null : durationInWords(p.maxProcessingTime)),
          },
        ]),
  ].join("\n");
}

/** Polls the withdrawal until it is completed or failed, showing each leg's progress. */
async function waitForPayout(
  client: PortfolioWalletClient,
  first: Withdrawal,
  timeoutMs: number,
): Promise<Withdrawal> {
  const progress = progressOn();
  let withdrawal = first;
  for (const waitBeforeNext of waitsWithin(timeoutMs)) {
    if (FINAL.has(withdrawal.status)) break;
    const approval =
      withdrawal.status === "pending_approval" && withdrawal.signingActivityId
        ? ` (approve it: portfolio-wallet approve ${withdrawal.signingActivityId})`
        : "";
    progress.update(`withdrawal ${withdrawal.id}: ${withdrawal.status}${approval}; ${legsText(withdrawal)}`);
    if (waitBeforeNext === undefined) {
      progress.done(`still ${withdrawal.status} after ${secondsText(timeoutMs)}`);
      throw new Error(
        `withdrawal ${withdrawal.id} is still ${withdrawal.status} after ${secondsText(timeoutMs)} (${legsText(withdrawal)}). ` +
          `Follow it with \`portfolio-wallet withdrawals show ${withdrawal.portfolioWalletId} ${withdrawal.id}\`; raise --timeout to wait longer.`,
      );
    }
    await waitBeforeNext();
    withdrawal = await client.withdrawals.retrieve(withdrawal.portfolioWalletId, withdrawal.id);
  }
  progress.done(`withdrawal ${withdrawal.id}: ${withdrawal.status}; ${legsText(withdrawal)}`);
  return withdrawal;
}

/** `portfolio-wallet withdraw`: a withdrawal with its payout legs (spec 4.8), optionally followed to the end. */
export function withdrawCommand(): Command {
  return new Command("withdraw")
    .description(
      "Withdraw funds from a wallet to an external address; prints the withdrawal and its payout legs.",
    )
    .requiredOption("--wallet <walletId>", "the wallet to withdraw from", uuid)
    .requiredOption("--amount <usd>", "amount in USD", positiveAmount)
    .requiredOption("--chain <chain>", "destination chain, such as ethereum")
    .requiredOption("--token <token>", "destination token, such as usdc")
    .requiredOption("--address <address>", "chain-native destination address")
    .option(
      "--request-id <uuid>",
      "idempotency key (default: derived from the details and today's UTC date, so re-running never pays twice)",
      uuid,
    )
    .option("--wait", "follow the payout legs until the withdrawal is completed or failed")
    .option("--timeout <seconds>", "how long --wait waits", wholeNumber, 3600)
    .action(async (flags: WithdrawFlags, command: Command) => {
      const options = globalOptionsOf(command);
      const details = {
        walletId: flags.wallet,
        amount: flags.amount,
        chain: flags.chain,
        token: flags.token,
        address: flags.address,
      };
      const requestId =
        flags.requestId ?? withdrawalRequestId(details, new Date().toISOString().slice(0, 10));
      // Said before sending: if this process dies, the key to resume with is already on screen.
      process.stderr.write(
        `requestId ${requestId}${flags.requestId ? "" : " (re-running this command sends it again)"}\n`,
      );
      const withdrawal = await withServiceClient(options, async (client) => {
        const requested = await client.withdrawals.create(flags.wallet, {
          requestId,
          withdrawalAmount: flags.amount,
          destinationChain: flags.chain,
          destinationToken: flags.token,
          destinationAddress: flags.address,
        });
        return flags.wait ? waitForPayout(client, requested, flags.timeout * 1000) : requested;
      });
      printResult(options.json === true, withdrawal, () => withdrawalFields(withdrawal));
      if (withdrawal.status === "failed") {
        process.stderr.write(
          `portfolio-wallet: withdrawal ${withdrawal.id} failed: ${withdrawal.failureReason ?? "the service gave no reason"}. ` +
            "Unpaid amounts return to the wallet.\n",
        );
        process.exitCode = 1;
      }
    });
}
