import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { packedPackage } from "./harness/packedPackage.ts";
import { ORG, startTestSandbox, TOKEN, type TestSandbox } from "../sandbox/helpers.ts";
import { callSandbox, type SandboxAccess } from "../support/sandboxAccess.ts";
import { PROGRAM_KINDS, type ProgramProject } from "../support/programProjects.ts";
import { configSetAll } from "../support/pulumiConfig.ts";

/**
 * A stack destroyed and brought up again with another allocation, as a user iterating on a stack
 * does, on both adapters (a TypeScript program on the dynamic resources, a YAML program on the
 * native plugin): the resource sends the creation requestId of its earlier self (derived from its
 * URN), the service refuses it with another body, and the provider takes over the earlier wallet
 * when it is empty, or refuses naming it when it holds funds (provider/earlierWallet.ts).
 */

const A = { tbills: 6000, syrupUsdc: 4000 };
const B = { tbills: 5000, syrupUsdc: 5000 };
type Weights = Record<string, number>;
const ENGINE_STEPS_TIMEOUT_MS = 600_000;

let tarball: string;
beforeAll(async () => {
  tarball = await packedPackage();
}, 600_000);

describe.each(PROGRAM_KINDS)("re-creating after destroy, $title", ({ name, create }) => {
  let t: TestSandbox;
  let project: ProgramProject;
  const access: SandboxAccess = { url: "", token: TOKEN };

  const setWeights = async (weights: Weights) => {
    await project.pulumi(
      configSetAll({ tbillsBps: String(weights["tbills"]), syrupUsdcBps: String(weights["syrupUsdc"]) }),
    );
  };
  const walletIdOutput = async (): Promise<string> =>
    (JSON.parse((await project.pulumi(["stack", "output", "--json"])).stdout) as { walletId: string })
      .walletId;
  const walletIds = async (): Promise<string[]> => {
    const page = await callSandbox(access, "GET", "/v2/portfolio-wallets?pageSize=100");
    return (page.data as { id: string }[]).map((wallet) => wallet.id);
  };
  const appliedWeights = async (walletId: string): Promise<Weights> => {
    const wallet = await callSandbox(access, "GET", `/v2/portfolio-wallets/${walletId}`);
    return Object.fromEntries(
      wallet.strategyConfig.positions.map((p: { positionKey: string; targetWeightBps: number }) => [
        p.positionKey,
        p.targetWeightBps,
      ]),
    );
  };

  /** A new stack of the project, up with allocation A, then destroyed: the wallet it leaves behind. */
  async function upAndDestroy(stack: string): Promise<string> {
    await project.pulumi(["stack", "init", stack]);
    await project.pulumi(
      configSetAll({ "portfolio-wallet:baseUrl": t.url }, { "portfolio-wallet:apiToken": TOKEN }),
    );
    await setWeights(A);
    await project.pulumi(["up", "--yes", "--skip-preview"]);
    const walletId = await walletIdOutput();
    await project.pulumi(["destroy", "--yes", "--skip-preview"]);
    return walletId;
  }

  beforeAll(async () => {
    t = await startTestSandbox({
      rebalanceDelayMs: 5,
      // The programs' webhooks point at 127.0.0.1: deliveries stay on the machine.
      allowPrivateWebhookUrls: true,
      tokens: { [TOKEN]: ORG },
    });
    access.url = t.url;
    project = await create(tarball, `recreate-${name}`);
  }, 600_000);

  afterAll(async () => {
    project?.cleanUp();
    await t?.close();
  });

  test(
    "with the earlier wallet empty, up with another allocation takes it over: one wallet, the code's allocation, said in the output",
    async () => {
      const earlier = await upAndDestroy("empty");
      const before = await walletIds();
      await setWeights(B);
      const up = await project.pulumi(["up", "--yes", "--skip-preview"]);
      expect(await walletIdOutput()).toBe(earlier);
      expect(await walletIds()).toEqual(before);
      expect(await appliedWeights(earlier)).toEqual(B);
      expect(`${up.stdout}\n${up.stderr}`).toContain(
        `taking over wallet ${earlier}: this resource created it earlier`,
      );
    },
    ENGINE_STEPS_TIMEOUT_MS,
  );

  test(
    "with the earlier wallet funded, up with another allocation is refused naming it and what to do",
    async () => {
      const earlier = await upAndDestroy("funded");
      const wallet = await callSandbox(access, "GET", `/v2/portfolio-wallets/${earlier}`);
      await callSandbox(access, "POST", "/_sandbox/deposits", {
        chain: "ethereum",
        address: wallet.depositAddresses.ethereum.address,
        amount: 2_500,
        txHash: `0x${"e".repeat(64)}`,
      });
      const before = await walletIds();
      await setWeights(B);
      const failure = await project.pulumi(["up", "--yes", "--skip-preview"]).then(
        () => undefined,
        (error: Error) => error.message,
      );
      expect(failure).toContain(`a wallet was already created for this resource: ${earlier}`);
      expect(failure).toContain("it holds $2,500.00");
      expect(failure).toContain(`set adoptWalletId to ${earlier}`);
      expect(await walletIds()).toEqual(before);
      expect(await appliedWeights(earlier)).toEqual(A);
    },
    ENGINE_STEPS_TIMEOUT_MS,
  );
});
