import {
  PolicyPack,
  type ReportViolation,
  type ResourceValidationArgs,
  type ResourceValidationPolicy,
} from "@pulumi/policy";
import type { StrategyCatalogEntry } from "../sdk/nodejs/contract/index.ts";
import { catalogOnce } from "./catalogSource.ts";
import {
  allowedYieldSources,
  maxWeightPerSource,
  maxWeightPerStrategyType,
  minWithdrawableShare,
  oneManagerPerWallet,
  retainNeedsAllowList,
  webhookUsesHttps,
  type AllocationSubject,
  type YieldSourceLists,
} from "./rules.ts";
import { isAllocationResource, kindOf, managerOf, targetWeightsOf } from "./subjects.ts";

/**
 * The policy pack `portfolio-wallet-allocation`: allocation guardrails that fail `pulumi preview`
 * before a pull request is approved. Each policy is one rule of rules.ts, configured through the
 * pack's standard config (`--policy-pack-config`), with its enforcement level. docs/policy.md
 * lists them with their defaults.
 */

const catalog = catalogOnce();

/** The allocation a resource sets, when this package's resource has known weights. */
function subjectOf(args: ResourceValidationArgs): AllocationSubject | undefined {
  if (!isAllocationResource(args.type)) return undefined;
  const weights = targetWeightsOf(args.props);
  return weights === undefined ? undefined : { resource: args.name, weights };
}

/** A policy over one allocation; catalog-based rules get the catalog, or report why it is missing. */
function allocationPolicy<Config extends object>(
  policy: Omit<ResourceValidationPolicy, "validateResource">,
  check: (
    subject: AllocationSubject,
    config: Config,
    catalog: () => Promise<StrategyCatalogEntry[]>,
  ) => Promise<string[]> | string[],
): ResourceValidationPolicy {
  return {
    ...policy,
    validateResource: async (args: ResourceValidationArgs, reportViolation: ReportViolation) => {
      const subject = subjectOf(args);
      if (subject === undefined) return;
      let findings: string[];
      try {
        findings = await check(subject, args.getConfig<Config>(), catalog);
      } catch (error) {
        findings = [`${subject.resource}: cannot check ${policy.name}: ${(error as Error).message}`];
      }
      for (const finding of findings) reportViolation(finding);
    },
  };
}

const bps = (description: string, defaultValue: number) => ({
  type: "integer" as const,
  minimum: 0,
  maximum: 10_000,
  default: defaultValue,
  description,
});
const names = (description: string) => ({
  type: "array" as const,
  items: { type: "string" as const },
  default: [],
  description,
});

export const allocationPolicies = new PolicyPack("portfolio-wallet-allocation", {
  policies: [
    allocationPolicy<{ maxBps: number }>(
      {
        name: "max-weight-per-source",
        description: "No yield source holds more than maxBps of a wallet's target allocation.",
        enforcementLevel: "advisory",
        configSchema: { properties: { maxBps: bps("the largest weight of one yield source, in bps", 5000) } },
      },
      (subject, config) => maxWeightPerSource(subject, config.maxBps, "max-weight-per-source.maxBps"),
    ),
    allocationPolicy<{ maxBps: Record<string, number> }>(
      {
        name: "max-weight-per-strategy-type",
        description:
          "No strategy type holds more than its limit, such as { deltaNeutralStrategy: 0 } to forbid delta-neutral strategies.",
        enforcementLevel: "advisory",
        configSchema: {
          properties: {
            maxBps: {
              type: "object",
              additionalProperties: { type: "integer", minimum: 0, maximum: 10_000 },
              default: {},
              description: "the largest weight per strategyType, in bps",
            },
          },
        },
      },
      async (subject, config, readCatalog) =>
        Object.keys(config.maxBps).length === 0
          ? []
          : maxWeightPerStrategyType(
              subject,
              await readCatalog(),
              config.maxBps,
              "max-weight-per-strategy-type.maxBps",
            ),
    ),
    allocationPolicy<{ minInstantBps: number; minWithin: { within: string; minBps: number }[] }>(
      {
        name: "min-withdrawable-share",
        description:
          "At least minInstantBps of a wallet is withdrawable at once (PT0H), and each minWithin limit holds, by the catalog's maxProcessingTime.",
        enforcementLevel: "advisory",
        configSchema: {
          properties: {
            minInstantBps: bps("the smallest share withdrawable at once (PT0H), in bps", 3000),
            minWithin: {
              type: "array",
              items: {
                type: "object",
                properties: {
                  within: { type: "string" },
                  minBps: { type: "integer", minimum: 0, maximum: 10_000 },
                },
                required: ["within", "minBps"],
              },
              default: [],
              description: 'more limits, such as [{ "within": "PT24H", "minBps": 8000 }]',
            },
          },
        },
      },
      async (subject, config, readCatalog) => {
        const entries = await readCatalog();
        return [
          ...minWithdrawableShare(
            subject,
            entries,
            "PT0H",
            config.minInstantBps,
            "min-withdrawable-share.minInstantBps",
          ),
          ...config.minWithin.flatMap((limit, index) =>
            minWithdrawableShare(
              subject,
              entries,
              limit.within,
              limit.minBps,
              `min-withdrawable-share.minWithin[${index}]`,
            ),
          ),
        ];
      },
    ),
    allocationPolicy<Required<YieldSourceLists>>(
      {
        name: "allowed-yield-sources",
        description:
          "Position keys and strategy types are in the allow lists (when given) and not in the exclude lists, and every key is in the catalog.",
        enforcementLevel: "advisory",
        configSchema: {
          properties: {
            allowedPositionKeys: names("position keys allowed (empty: all)"),
            excludedPositionKeys: names("position keys never allowed"),
            allowedStrategyTypes: names("strategy types allowed (empty: all)"),
            excludedStrategyTypes: names("strategy types never allowed, such as deltaNeutralStrategy"),
          },
        },
      },
      async (subject, config, readCatalog) =>
        allowedYieldSources(subject, await readCatalog(), config, "allowed-yield-sources"),
    ),
    {
      name: "retain-needs-allow-list",
      description:
        'A wallet may use onDelete: "retain" (leaving the stack with its funds) only if it is on the allow list.',
      enforcementLevel: "advisory",
      configSchema: {
        properties: { allowedWallets: names("resource names of wallets allowed to use retain") },
      },
      validateResource: (args, reportViolation) => {
        if (kindOf(args.type) !== "portfolioWallet") return;
        const onDelete = typeof args.props["onDelete"] === "string" ? args.props["onDelete"] : undefined;
        const { allowedWallets } = args.getConfig<{ allowedWallets: string[] }>();
        for (const finding of retainNeedsAllowList(
          args.name,
          onDelete,
          allowedWallets,
          "retain-needs-allow-list.allowedWallets",
        )) {
          reportViolation(finding);
        }
      },
    },
    {
      name: "webhooks-use-https",
      description: "Webhook registrations deliver to https URLs only.",
      enforcementLevel: "advisory",
      validateResource: (args, reportViolation) => {
        if (kindOf(args.type) !== "webhookRegistration") return;
        const url = typeof args.props["url"] === "string" ? args.props["url"] : undefined;
        for (const finding of webhookUsesHttps(args.name, url, "webhooks-use-https"))
          reportViolation(finding);
      },
    },
    {
      name: "one-manager-per-wallet",
      description:
        "No wallet's allocation is managed by two resources (a PortfolioWallet and a WalletStrategy, or two WalletStrategies).",
      enforcementLevel: "mandatory",
      validateStack: (args, reportViolation) => {
        const managers = args.resources.flatMap((resource) => {
          const manager = managerOf(resource);
          return manager === undefined ? [] : [manager];
        });
        for (const finding of oneManagerPerWallet(managers)) reportViolation(finding);
      },
    },
  ],
});
