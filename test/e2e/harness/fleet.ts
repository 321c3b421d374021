import path from "node:path";
import { startSandbox, type Sandbox, type SandboxOptions } from "../../../sandbox/index.ts";
import { repoRoot } from "../../../scripts/pulumiEnv.ts";
import { ConsumerProject } from "../../consumer/harness/consumerProject.ts";
import { packedPackage } from "../../consumer/harness/packedPackage.ts";
import {
  callSandbox,
  requestCounts,
  resetRequestCounts,
  type SandboxAccess,
} from "../../support/sandboxAccess.ts";
import { configSetAll } from "../../support/pulumiConfig.ts";
import { upKilledAfter } from "./crash.ts";

/**
 * A fleet of `PortfolioWallet`s as a platform team runs it: the bench's fleet program
 * (test/bench/programs/fleet) in a project outside this repository with the packed package
 * installed, its own in-process sandbox and organization, and what the crash and fault tests read
 * of both sides: the wallets at the service and in the state.
 */
export class Fleet {
  readonly sandbox: Sandbox;
  readonly project: ConsumerProject;
  readonly access: SandboxAccess;
  /** Everything the CLI printed in killed runs. */
  output = "";

  private constructor(sandbox: Sandbox, project: ConsumerProject, token: string) {
    this.sandbox = sandbox;
    this.project = project;
    this.access = { url: sandbox.url, token };
  }

  /**
   * A stack `dev` of `wallets` wallets, configured for the sandbox (the token a secret); `options`
   * add to the sandbox's (a rate limit, for example).
   */
  static async start(name: string, wallets: number, options: SandboxOptions = {}): Promise<Fleet> {
    const token = `${name}-token`;
    const sandbox = await startSandbox({
      port: 0,
      dataDir: ":memory:",
      tokens: { [token]: `${name}-org` },
      ...options,
    });
    const project = await ConsumerProject.fromTemplate(
      path.join(repoRoot, "test", "bench", "programs", "fleet"),
      name,
      await packedPackage(),
    );
    const fleet = new Fleet(sandbox, project, token);
    await project.pulumi(["stack", "init", "dev"]);
    await project.pulumi(
      configSetAll(
        { "bench:count": String(wallets), "bench:kind": "wallet", "portfolio-wallet:baseUrl": sandbox.url },
        { "portfolio-wallet:apiToken": token },
      ),
    );
    return fleet;
  }

  async close(): Promise<void> {
    await this.sandbox.close();
    this.project.cleanUp();
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
