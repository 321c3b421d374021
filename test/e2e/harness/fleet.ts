import path from "node:path";
import { startSandbox, type Sandbox } from "../../../sandbox/index.ts";
import { repoRoot } from "../../../scripts/pulumiEnv.ts";
import { ConsumerProject } from "../../consumer/harness/consumerProject.ts";
import { packedPackage } from "../../consumer/harness/packedPackage.ts";
import {
  callSandbox,
  requestCounts,
  resetRequestCounts,
  type SandboxAccess,
} from "../../support/sandboxAccess.ts";
import { upKilledAfter } from "./crash.ts";

/**
 * A fleet of `PortfolioWallet`s as a platform team runs it: the bench's fleet program
 * (test/bench/programs/fleet) in a project outside this repository with the packed package
 * installed, an in-process sandbox, a stack with an organization of its own, and what the crash
 * and fault tests read of both sides: the wallets at the service and in the state.
 *
 * Several fleets can share one sandbox and one project (one `npm install` of the package), each on
 * its own stack and organization (startStacks): the Pulumi commands run on the selected stack, so
 * a test selects its fleet's stack first (select).
 */
export class Fleet {
  readonly sandbox: Sandbox;
  readonly project: ConsumerProject;
  readonly access: SandboxAccess;
  readonly stack: string;
  /** Everything the CLI printed in killed runs. */
  output = "";
  /** Closes the sandbox and removes the project once, whichever of the fleets sharing them closes first. */
  readonly #closeShared: () => Promise<void>;

  private constructor(
    sandbox: Sandbox,
    project: ConsumerProject,
    stack: string,
    token: string,
    closeShared: () => Promise<void>,
  ) {
    this.sandbox = sandbox;
    this.project = project;
    this.stack = stack;
    this.access = { url: sandbox.url, token };
    this.#closeShared = closeShared;
  }

  /** A stack `dev` of `wallets` wallets, configured for the sandbox (the token a secret). */
  static async start(name: string, wallets: number): Promise<Fleet> {
    const [fleet] = await Fleet.startStacks(name, { dev: wallets });
    return fleet!;
  }

  /**
   * One fleet per entry of `wallets` (stack name → wallet count), all in one sandbox and one
   * project, each stack configured for an organization of its own (the token a secret), so that
   * one fleet's wallets and request counts are never another's. The last stack is left selected.
   */
  static async startStacks(name: string, wallets: Record<string, number>): Promise<Fleet[]> {
    const stacks = Object.entries(wallets).map(([stack, count]) => ({
      stack,
      count,
      token: `${name}-${stack}-token`,
      organization: `${name}-${stack}-org`,
    }));
    const sandbox = await startSandbox({
      port: 0,
      dataDir: ":memory:",
      tokens: Object.fromEntries(stacks.map(({ token, organization }) => [token, organization])),
    });
    const project = await ConsumerProject.fromTemplate(
      path.join(repoRoot, "test", "bench", "programs", "fleet"),
      name,
      await packedPackage(),
    );
    let closing: Promise<void> | undefined;
    const closeShared = () =>
      (closing ??= sandbox.close().then(() => {
        project.cleanUp();
      }));
    const fleets: Fleet[] = [];
    for (const { stack, count, token } of stacks) {
      fleets.push(new Fleet(sandbox, project, stack, token, closeShared));
      await project.pulumi(["stack", "init", stack]);
      await project.pulumi(["config", "set", "bench:count", String(count)]);
      await project.pulumi(["config", "set", "bench:kind", "wallet"]);
      await project.pulumi(["config", "set", "portfolio-wallet:baseUrl", sandbox.url]);
      await project.pulumi(["config", "set", "--secret", "portfolio-wallet:apiToken", token]);
    }
    return fleets;
  }

  /** Makes this fleet's stack the one the project's Pulumi commands run on. */
  async select(): Promise<void> {
    await this.project.pulumi(["stack", "select", this.stack]);
  }

  async close(): Promise<void> {
    await this.#closeShared();
  }

  /** Every wallet of the organization at the service. */
  // Answers are loose JSON.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async walletsAtTheService(): Promise<any[]> {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const wallets: any[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`;
      const page = (await callSandbox(this.access, "GET", `/v2/portfolio-wallets?pageSize=100${query}`)) as {
        data: unknown[];
        nextCursor: string | null;
      };
      wallets.push(...page.data);
      cursor = page.nextCursor;
    } while (cursor !== null);
    return wallets;
  }

  /** A wallet's strategy updates at the service (the console's read API). */
  async strategyUpdatesOf(walletId: string): Promise<unknown[]> {
    const answer = (await callSandbox(
      this.access,
      "GET",
      `/_console/api/wallets/${walletId}/strategy-updates`,
    )) as {
      data: unknown[];
    };
    return answer.data;
  }

  /** The checkpoint: its wallets' ids (sorted) and the operations a dead run left pending in it. */
  async checkpoint(): Promise<{ walletIds: string[]; pendingOperations: { type: string }[] }> {
    const { stdout } = await this.project.pulumi(["stack", "export"]);
    const deployment = (
      JSON.parse(stdout) as {
        deployment: { resources?: { type: string; id?: string }[]; pending_operations?: { type: string }[] };
      }
    ).deployment;
    return {
      walletIds: (deployment.resources ?? [])
        .filter((resource) => resource.type.includes("PortfolioWallet"))
        .map((resource) => String(resource.id))
        .sort(),
      pendingOperations: deployment.pending_operations ?? [],
    };
  }

  /** Kills an `up` (and everything it started) once the service answered `after` × `route`, then `pulumi cancel`. */
  async upKilledAfter(route: string, after: number, env: Record<string, string> = {}): Promise<void> {
    await resetRequestCounts(this.access);
    await upKilledAfter(
      {
        project: this.project,
        env,
        countOf: async (key) => (await requestCounts(this.access))[key] ?? 0,
        write: (text) => (this.output += text),
      },
      route,
      after,
    );
  }
}
