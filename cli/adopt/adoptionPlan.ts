import path from "node:path";

/**
 * Where `portfolio-wallet adopt` writes an allocation the service applies into the code, decided
 * without touching anything: pure, so that every rule can be tested without an engine. A program
 * takes a wallet's allocation from one of three places, tried in this order:
 * - an allocation file (`loadAllocation`): a JSON file of the project whose positions are the
 *   code's allocation, rewritten with the service's;
 * - the stack config: one number per yield source (`tbillsBps: 6000`), each setting named after
 *   its source and holding the code's weight, set to the service's weight;
 * - anything else (a literal in the program, an expression): the lines of the program that name
 *   the wallet's sources, with what to change there, for a person to edit.
 * A place is taken only when exactly one fits; when two could (two files with the code's weights,
 * two settings), adopt says so and writes neither. The command checks every write afterwards with
 * a refreshed preview, so a place that matched by coincidence is found and put back.
 */

export type Weights = Record<string, number>;

/** An allocation the service applies that the code does not (a drift finding `allocation`). */
export interface AllocationToAdopt {
  /** The resource's name in the program. */
  name: string;
  /** Its type name (PortfolioWallet, WalletStrategy). */
  kind: string;
  walletId: string | null;
  code: Weights;
  service: Weights;
}

/** Another allocation resource of the stack: its code's allocation must stay as it is. */
export interface KeptAllocation {
  name: string;
  code: Weights;
}

/** A JSON file of the project that reads as an allocation file. */
export interface FoundAllocationFile {
  /** Relative to the project directory. */
  path: string;
  weights: Weights;
}

/** A plain (not secret) value of the stack config, by its full key (`project:tbillsBps`). */
export interface ConfigValue {
  key: string;
  value: string;
}

/** A source file of the program, by its path relative to the project directory. */
export interface ProgramFile {
  path: string;
  text: string;
}

export interface ProgramSources {
  allocationFiles: FoundAllocationFile[];
  config: ConfigValue[];
  files: ProgramFile[];
}

export interface SourceLine {
  path: string;
  /** 1-based. */
  line: number;
  text: string;
}

export interface ConfigSetting {
  key: string;
  from: number;
  to: number;
}

export type Adoption =
  | { wallet: AllocationToAdopt; how: "allocation-file"; file: string }
  | { wallet: AllocationToAdopt; how: "stack-config"; settings: ConfigSetting[] }
  | { wallet: AllocationToAdopt; how: "by-hand"; why: string; lines: SourceLine[] };

/** The most program lines shown per wallet: the ones naming its sources, first in each file. */
const MAX_LINES = 12;

/** Names compared loosely: `tbillsBps`, `TBILLS_BPS` and `tbills-bps` all name tbills. */
const loose = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");

const sameWeights = (a: Weights, b: Weights) => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => b[key] === a[key]);
};

/** `resolvRlp 8000, tbills 2000`: sorted by source, as drift says them. */
export const weightsInWords = (weights: Weights) =>
  Object.keys(weights)
    .sort()
    .map((key) => `${key} ${weights[key]}`)
    .join(", ");

/** What changes per source, from the code's allocation to the service's. */
export function changesInWords(wallet: AllocationToAdopt): string[] {
  const keys = [...new Set([...Object.keys(wallet.code), ...Object.keys(wallet.service)])].sort();
  return keys.flatMap((key) => {
    const code = wallet.code[key];
    const service = wallet.service[key];
    if (code === service) return [];
    if (code === undefined) return [`add ${key} ${service}`];
    if (service === undefined) return [`remove ${key} (${code})`];
    return [`${key} ${code} → ${service}`];
  });
}

/** The one candidate, or the one named after the resource among several; else none. */
function theOne<T>(candidates: T[], nameOf: (candidate: T) => string, resource: string): T | undefined {
  if (candidates.length === 1) return candidates[0];
  const named = candidates.filter((candidate) => loose(nameOf(candidate)).includes(loose(resource)));
  return named.length === 1 ? named[0] : undefined;
}

type PlaceAnswer = { adoption: Adoption } | { refused: string } | null;

function viaAllocationFile(
  wallet: AllocationToAdopt,
  others: { name: string; code: Weights; service: Weights | null }[],
  files: FoundAllocationFile[],
): PlaceAnswer {
  const matching = files.filter((file) => sameWeights(file.weights, wallet.code));
  if (matching.length === 0) return null;
  const file = theOne(matching, (candidate) => path.basename(candidate.path), wallet.name);
  if (file === undefined)
    return {
      refused: `${matching.length} allocation files hold the code's allocation (${matching.map((f) => f.path).join(", ")}), and adopt cannot tell which one the program reads for ${wallet.name}`,
    };
  // A file that other resources may read too is written only if they all move the same way.
  const sharing = others.filter(
    (other) =>
      sameWeights(other.code, wallet.code) &&
      (other.service === null || !sameWeights(other.service, wallet.service)),
  );
  if (sharing.length > 0)
    return {
      refused: `${file.path} holds the code's allocation of ${wallet.name}, and also that of ${sharing.map((other) => other.name).join(", ")}, whose allocation the service did not change the same way: writing it would move those too; give ${wallet.name} a file of its own`,
    };
  return { adoption: { wallet, how: "allocation-file", file: file.path } };
}

function viaStackConfig(wallet: AllocationToAdopt, config: ConfigValue[]): PlaceAnswer {
  const numbers = config.filter((entry) => /^\d+$/.test(entry.value.trim()));
  const localName = (key: string) => key.slice(key.indexOf(":") + 1);
  const candidatesOf = (source: string, weight: number) =>
    numbers.filter(
      (entry) => Number(entry.value) === weight && loose(localName(entry.key)).includes(loose(source)),
    );
  const codeSources = Object.keys(wallet.code).sort();
  if (codeSources.every((source) => candidatesOf(source, wallet.code[source]!).length === 0)) return null;
  const added = Object.keys(wallet.service).filter((source) => wallet.code[source] === undefined);
  const removed = codeSources.filter((source) => wallet.service[source] === undefined);
  if (added.length > 0 || removed.length > 0) {
    const parts = [
      ...(added.length > 0
        ? [`the service holds ${added.join(", ")}, which the program has no position for`]
        : []),
      ...(removed.length > 0
        ? [
            `the service holds no ${removed.join(", ")}, and a position is removed from the program, not set to 0`,
          ]
        : []),
    ];
    return { refused: `the stack config holds ${wallet.name}'s weights, but ${parts.join("; ")}` };
  }
  const settings: ConfigSetting[] = [];
  for (const source of codeSources) {
    const candidates = candidatesOf(source, wallet.code[source]!);
    const entry = theOne(candidates, (candidate) => localName(candidate.key), wallet.name);
    if (entry === undefined)
      return {
        refused:
          candidates.length === 0
            ? `the stack config has settings for some of ${wallet.name}'s sources but none named after ${source} holding ${wallet.code[source]}`
            : `the stack config has ${candidates.length} settings that could be ${wallet.name}'s ${source} (${candidates.map((c) => c.key).join(", ")})`,
      };
    settings.push({ key: entry.key, from: wallet.code[source]!, to: wallet.service[source]! });
  }
  return { adoption: { wallet, how: "stack-config", settings } };
}

/** The program's lines that name any of the wallet's sources, as a person would search for them. */
function linesNaming(wallet: AllocationToAdopt, files: ProgramFile[]): SourceLine[] {
  const sources = [...new Set([...Object.keys(wallet.code), ...Object.keys(wallet.service)])];
  const escaped = sources.map((source) => source.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const naming = new RegExp(`(^|[^A-Za-z0-9_])(${escaped.join("|")})([^A-Za-z0-9_]|$)`);
  const lines: SourceLine[] = [];
  for (const file of files) {
    file.text.split("\n").forEach((text, index) => {
      if (lines.length < MAX_LINES && naming.test(text))
        lines.push({ path: file.path, line: index + 1, text: text.trim() });
    });
  }
  return lines;
}

/**
 * Where each allocation goes. Every allocation is answered: written to a file, set in the stack
 * config, or left to a person with the lines to change and why no place could be written.
 */
export function planAdoptions(
  toAdopt: readonly AllocationToAdopt[],
  kept: readonly KeptAllocation[],
  sources: ProgramSources,
): Adoption[] {
  const planned = toAdopt.map((wallet): Adoption => {
    const others = [
      ...toAdopt.filter((other) => other !== wallet),
      ...kept.map((other) => ({ ...other, service: null })),
    ];
    const refusals: string[] = [];
    for (const answer of [
      viaAllocationFile(wallet, others, sources.allocationFiles),
      viaStackConfig(wallet, sources.config),
    ]) {
      if (answer === null) continue;
      if ("adoption" in answer) return answer.adoption;
      refusals.push(answer.refused);
    }
    const why =
      refusals.length > 0
        ? refusals.join("; ")
        : "no allocation file of the project and no stack setting holds the code's allocation: the program writes it some other way";
    return { wallet, how: "by-hand", why, lines: linesNaming(wallet, sources.files) };
  });
  // Two wallets may not set one stack setting to different weights.
  const byKey = new Map<string, Set<number>>();
  for (const adoption of planned)
    if (adoption.how === "stack-config")
      for (const setting of adoption.settings)
        byKey.set(setting.key, (byKey.get(setting.key) ?? new Set()).add(setting.to));
  return planned.map((adoption) => {
    if (adoption.how !== "stack-config") return adoption;
    const clash = adoption.settings.find((setting) => byKey.get(setting.key)!.size > 1);
    if (clash === undefined) return adoption;
    return {
      wallet: adoption.wallet,
      how: "by-hand",
      why: `the stack setting ${clash.key} would be set to different weights for different wallets`,
      lines: linesNaming(adoption.wallet, sources.files),
    };
  });
}
