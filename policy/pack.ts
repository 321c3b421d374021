import {
  PolicyPack,
  type PolicyResource,
  type ReportViolation,
  type ResourceValidationArgs,
  type ResourceValidationPolicy,
  type StackValidationPolicy,
} from "@pulumi/policy";
import {
  moneyImpact,
  stackMoneyImpact,
  TargetAllocation,
  type StrategyCatalogEntry,
} from "../sdk/nodejs/contract/index.ts";
import { STACK_STATE_FILE_ENV, catalogOnce, stackStateWalletIds, walletsOnce } from "./catalogSource.ts";
import {
  allowedYieldSources,
  maxUsdMovedPerStack,
  maxUsdMovedPerWallet,
  maxWeightPerSource,
  minUsdWithdrawablePerStack,
  minUsdWithdrawablePerWallet,
  maxWeightPerStrategyType,
  minWithdrawableShare,
  oneManagerPerWallet,
  retainNeedsAllowList,
  webhookUsesHttps,
  type AllocationSubject,
  type MoneySubject,
  type YieldSourceLists,
} from "./rules.ts";
import {
  allocationRoleOf,
  isAllocationResource,
  kindOf,
  managerOf,
  targetWeightsOf,
  walletIdIn,
} from "./subjects.ts";
import type { UncheckedInputs } from "../sdk/nodejs/resources/resourceTypes.ts";

/**
 * The policy pack `portfolio-wallet-allocation`: allocation guardrails that fail `pulumi preview`
 * before a pull request is approved. Each policy is one rule of rules.ts, configured through the
 * pack's standard config (`--policy-pack-config`), with its enforcement level. docs/policy.md
 * lists them with their defaults.
 */

const catalog = catalogOnce();
const wallets = walletsOnce();

/**
 * The money impact of each allocation the stack changes, read against the service's wallets and
 * catalog; `problems` are the resources whose money could not be read, each saying why, so that
 * a money rule reports them instead of passing. A new wallet (not in the stack's state) and a
 * target equal to the wallet's current one move no money and are left out.
 */
async function moneySubjects(
  resources: readonly PolicyResource[],
): Promise<{ subjects: MoneySubject[]; problems: string[] }> {
  const allocations = resources.flatMap((resource) => {
    if (!isAllocationResource(resource.type)) return [];
    const weights = targetWeightsOf(kindOf(resource.type), resource.props);
    return weights === undefined ? [] : [{ resource, weights }];
  });
  if (allocations.length === 0) return { subjects: [], problems: [] };
  const stateIds = stackStateWalletIds();
  const [entries, byId] = await Promise.all([catalog(), wallets()]);
  const subjects: MoneySubject[] = [];
  const problems: string[] = [];
  for (const { resource, weights } of allocations) {
    const walletId = walletIdIn(kindOf(resource.type), resource.props) ?? stateIds?.get(resource.urn);
    if (walletId === undefined) {
      // A wallet strategy's id computed from a wallet made in the same `up`, or a wallet not yet in the
      // state: a new wallet, which holds nothing to move.
      if (allocationRoleOf(resource.type) === "manages" || stateIds !== null) continue;
      problems.push(
        `${resource.name}: its wallet is unknown at preview (a PortfolioWallet's id is an output, which the engine ` +
          `does not show a policy); set ${STACK_STATE_FILE_ENV} to a file of \`pulumi stack export\` (docs/policy.md)`,
      );
      continue;
    }
    const wallet = byId.get(walletId);
    if (wallet === undefined) {
      problems.push(`${resource.name}: the service lists no wallet ${walletId} for this API token`);
      continue;
    }
    if (TargetAllocation.ofWeights(weights).same(wallet.strategyConfig.positions)) continue;
    subjects.push({ resource: resource.name, impact: moneyImpact(wallet, weights, entries) });
  }
  return { subjects, problems };
}

/** A stack policy over the money the stack's changes move; a failure to read says so, never passes. */
function moneyPolicy<Config extends object>(
  policy: Omit<StackValidationPolicy, "validateStack">,
  check: (subjects: MoneySubject[], config: Config) => string[],
): StackValidationPolicy {
  return {
    ...policy,
    validateStack: async (args, reportViolation) => {
      const config = args.getConfig<Config>();
      // A rule with no limit set reads nothing.
      const limits = Object.entries(config).filter(([key]) => key !== "enforcementLevel");
      if (limits.every(([, value]) => value === undefined || (Array.isArray(value) && value.length === 0)))
        return;
      let findings: string[];
      try {
        const { subjects, problems } = await moneySubjects(args.resources);
        findings = [
          ...problems.map((problem) => `cannot check ${policy.name}: ${problem}`),
          ...check(subjects, config),
        ];
      } catch (error) {
        findings = [`cannot check ${policy.name}: ${(error as Error).message}`];
      }
      for (const finding of findings) reportViolation(finding);
    },
  };
}

const usd = (description: string) => ({ type: "number" as const, minimum: 0, description });

/** The allocation a resource sets, when this package's resource has known weights. */
function subjectOf(args: ResourceValidationArgs): AllocationSubject | undefined {
  if (!isAllocationResource(args.type)) return undefined;
  const weights = targetWeightsOf(kindOf(args.type), args.props);
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
    moneyPolicy<{ maxUsdPerWallet?: number; maxUsdPerStack?: number }>(
      {
        name: "max-usd-moved",
        description:
          "A change moves at most maxUsdPerWallet out of one wallet's sources into others, and at most maxUsdPerStack over the stack.",
        enforcementLevel: "advisory",
        configSchema: {
          properties: {
            maxUsdPerWallet: usd("the most USD one wallet's change may move (unset: no limit)"),
            maxUsdPerStack: usd("the most USD the stack's changes may move together (unset: no limit)"),
          },
        },
      },
      (subjects, config) => [
        ...(config.maxUsdPerWallet === undefined
          ? []
          : subjects.flatMap((subject) =>
              maxUsdMovedPerWallet(subject, config.maxUsdPerWallet!, "max-usd-moved.maxUsdPerWallet"),
            )),
        ...(config.maxUsdPerStack === undefined || subjects.length === 0
          ? []
          : maxUsdMovedPerStack(
              stackMoneyImpact(subjects.map((subject) => subject.impact)),
              config.maxUsdPerStack,
              "max-usd-moved.maxUsdPerStack",
            )),
      ],
    ),
    moneyPolicy<{
      minInstantUsdPerWallet?: number;
      minInstantUsdPerStack?: number;
      minWithin?: { within: string; minUsdPerWallet?: number; minUsdPerStack?: number }[];
    }>(
      {
        name: "min-usd-withdrawable",
        description:
          "After a change that moves money, at least the given USD stays withdrawable at once (PT0H), and within each minWithin time, per wallet and over the stack's changed wallets.",
        enforcementLevel: "advisory",
        configSchema: {
          properties: {
            minInstantUsdPerWallet: usd("the least USD withdrawable at once in a wallet after its change"),
            minInstantUsdPerStack: usd("the least USD withdrawable at once over the changed wallets"),
            minWithin: {
              type: "array",
              items: {
                type: "object",
                properties: {
                  within: { type: "string" },
                  minUsdPerWallet: { type: "number", minimum: 0 },
                  minUsdPerStack: { type: "number", minimum: 0 },
                },
                required: ["within"],
              },
              description: 'more limits, such as [{ "within": "PT24H", "minUsdPerWallet": 1000000 }]',
            },
          },
        },
      },
      (subjects, config) => {
        const limits = [
          {
            within: "PT0H",
            perWallet: config.minInstantUsdPerWallet,
            perStack: config.minInstantUsdPerStack,
            key: "min-usd-withdrawable.minInstantUsdPer",
          },
          ...(config.minWithin ?? []).map((limit, index) => ({
            within: limit.within,
            perWallet: limit.minUsdPerWallet,
            perStack: limit.minUsdPerStack,
            key: `min-usd-withdrawable.minWithin[${index}].minUsdPer`,
          })),
        ];
        const stack = stackMoneyImpact(subjects.map((subject) => subject.impact));
        return limits.flatMap((limit) => [
          ...(limit.perWallet === undefined
            ? []
            : subjects.flatMap((subject) =>
                minUsdWithdrawablePerWallet(subject, limit.within, limit.perWallet!, `${limit.key}Wallet`),
              )),
          ...(limit.perStack === undefined || subjects.length === 0
            ? []
            : minUsdWithdrawablePerStack(stack, limit.within, limit.perStack, `${limit.key}Stack`)),
        ]);
      },
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
        const props: UncheckedInputs<"portfolioWallet"> = args.props;
        const onDelete = typeof props.onDelete === "string" ? props.onDelete : undefined;
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
        const props: UncheckedInputs<"webhookRegistration"> = args.props;
        const url = typeof props.url === "string" ? props.url : undefined;
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
