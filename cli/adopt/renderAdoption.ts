import { changesInWords, weightsInWords, type Adoption, type AllocationToAdopt } from "./adoptionPlan.ts";

/** What `adopt` did, for the terminal and (with code spans) for a pull request's body. */
export interface AdoptionOutcome {
  stack: string | null;
  adoptions: Adoption[];
  /** The refreshed preview after the writes: other steps that remain (webhooks...), in words. */
  otherChanges: string[];
  /** Whether a refreshed preview was run after writing (false: nothing was written). */
  checked: boolean;
  /** Drift findings that are not allocations: adopt leaves them to `drift`'s own ways back. */
  otherFindings: string[];
}

const walletOf = (wallet: AllocationToAdopt) =>
  `${wallet.kind} ${wallet.name}${wallet.walletId ? ` (wallet ${wallet.walletId})` : ""}`;

export function renderAdoption(outcome: AdoptionOutcome, markdown: boolean): string {
  const code = (text: string) => (markdown ? `\`${text}\`` : text);
  const written = outcome.adoptions.filter((adoption) => adoption.how !== "by-hand");
  const byHand = outcome.adoptions.filter((adoption) => adoption.how === "by-hand");
  const where = outcome.stack ?? "the stack";
  const lines: string[] = [];
  lines.push(
    outcome.adoptions.length === 0
      ? `${where}: nothing to adopt: no allocation was changed at the service.`
      : `${where}: ${written.length} of ${outcome.adoptions.length} allocation${outcome.adoptions.length === 1 ? "" : "s"} changed at the service written into the code${byHand.length > 0 ? `; ${byHand.length} to change by hand` : ""}.`,
  );
  for (const adoption of outcome.adoptions) {
    const wallet = adoption.wallet;
    lines.push("");
    lines.push(
      `${markdown ? "- **" : ""}${walletOf(wallet)}${markdown ? "**" : ""}: the service applies ${weightsInWords(wallet.service)}, the code ${weightsInWords(wallet.code)} (${changesInWords(wallet).join(", ")}).`,
    );
    const indent = markdown ? "  - " : "  ";
    if (adoption.how === "allocation-file") {
      lines.push(`${indent}Written to the allocation file ${code(adoption.file)}.`);
    } else if (adoption.how === "stack-config") {
      for (const setting of adoption.settings)
        lines.push(`${indent}Stack config ${code(setting.key)}: ${setting.from} → ${setting.to}.`);
    } else {
      lines.push(`${indent}Change by hand: ${adoption.why}.`);
      if (adoption.lines.length === 0) lines.push(`${indent}No line of the program names these sources.`);
      for (const line of adoption.lines)
        lines.push(`${indent}${code(`${line.path}:${line.line}`)}  ${code(line.text)}`);
    }
  }
  if (outcome.checked) {
    lines.push("");
    lines.push(
      `A refreshed preview (${code("pulumi preview --refresh")}, nothing written) shows no change to the wallets written here.${outcome.otherChanges.length > 0 ? ` It still shows: ${outcome.otherChanges.join("; ")}.` : ""}`,
    );
  }
  if (outcome.otherFindings.length > 0) {
    lines.push("");
    lines.push(
      `Not an allocation, so not adopted (see ${code("portfolio-wallet drift")}): ${outcome.otherFindings.join("; ")}.`,
    );
  }
  return `${lines.join("\n")}\n`;
}
