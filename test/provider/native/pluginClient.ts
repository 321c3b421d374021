import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import emptyProto from "google-protobuf/google/protobuf/empty_pb.js";
import structProto from "google-protobuf/google/protobuf/struct_pb.js";
import providerGrpc from "@pulumi/pulumi/proto/provider_grpc_pb.js";
import providerProto from "@pulumi/pulumi/proto/provider_pb.js";
import { repoRoot } from "../../../scripts/pulumiEnv.ts";

/**
 * The native plugin as the engine meets it: a process started with an address as its argument,
 * printing its port, then spoken to over gRPC. Each method sends what the engine sends and answers
 * the response as plain values.
 */

type Properties = Record<string, unknown>;
const struct = (properties: Properties) =>
  structProto.Struct.fromJavaScript(properties as Record<string, structProto.JavaScriptValue>);
const plain = (value: InstanceType<typeof structProto.Struct> | undefined) =>
  (value?.toJavaScript() ?? {}) as Properties;

/** A secret as the engine sends one. */
export const secretValue = (value: unknown) => ({
  "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
  value,
});

export const NATIVE_TYPES = {
  portfolioWallet: "portfolio-wallet:index:PortfolioWallet",
  walletStrategy: "portfolio-wallet:index:WalletStrategy",
  webhookRegistration: "portfolio-wallet:index:WebhookRegistration",
} as const;

export function nativeUrnOf(type: string, name: string): string {
  return `urn:pulumi:test::native::${type}::${name}`;
}

export class PluginClient {
  readonly #process: ChildProcess;
  readonly #client: InstanceType<typeof providerGrpc.ResourceProviderClient>;
  /** What the plugin wrote to stderr. */
  stderr = "";

  private constructor(child: ChildProcess, port: number) {
    this.#process = child;
    child.stderr?.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.#client = new providerGrpc.ResourceProviderClient(
      `127.0.0.1:${port}`,
      grpc.credentials.createInsecure(),
    );
  }

  /** Starts `provider/native/main.ts` (or `command`) with `env`, as the engine would. */
  static async start(
    env: NodeJS.ProcessEnv = {},
    command = [path.join(repoRoot, "provider/native/main.ts")],
  ) {
    const child = spawn(process.execPath, [...command, "127.0.0.1:1"], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const port = await Promise.race([
      (async () => {
        while (!stdout.includes("\n")) await once(child.stdout!, "data");
        return Number(stdout.split("\n")[0]);
      })(),
      once(child, "exit").then(([code]) => {
        throw new Error(`the plugin exited with ${String(code)} before printing its port`);
      }),
    ]);
    return new PluginClient(child, port);
  }

  async close(): Promise<void> {
    this.#client.close();
    if (this.#process.exitCode === null) {
      this.#process.kill("SIGINT");
      await once(this.#process, "exit");
    }
  }

  #call<Req, Res>(method: string, request: Req): Promise<Res> {
    return new Promise((resolve, reject) => {
      type UnaryCall = (request: Req, done: (error: grpc.ServiceError | null, response: Res) => void) => void;
      const fn = (this.#client as unknown as Record<string, UnaryCall>)[method]!.bind(this.#client);
      fn(request, (error, response) => (error ? reject(error) : resolve(response)));
    });
  }

  async getSchema(): Promise<string> {
    const response = await this.#call<unknown, { getSchema(): string }>(
      "getSchema",
      new providerProto.GetSchemaRequest(),
    );
    return response.getSchema();
  }

  async pluginVersion(): Promise<string> {
    const response = await this.#call<unknown, { getVersion(): string }>(
      "getPluginInfo",
      new emptyProto.Empty(),
    );
    return response.getVersion();
  }

  async checkConfig(news: Properties) {
    const request = new providerProto.CheckRequest();
    request.setUrn("urn:pulumi:test::native::pulumi:providers:portfolio-wallet::default");
    request.setOlds(struct({}));
    request.setNews(struct(news));
    const response = await this.#call<unknown, InstanceType<typeof providerProto.CheckResponse>>(
      "checkConfig",
      request,
    );
    return { inputs: plain(response.getInputs()), failures: failuresOf(response) };
  }

  async configure(args: Properties): Promise<void> {
    const request = new providerProto.ConfigureRequest();
    request.setArgs(struct(args));
    request.setAcceptsecrets(true);
    await this.#call("configure", request);
  }

  async check(type: string, urn: string, olds: Properties, news: Properties) {
    const request = new providerProto.CheckRequest();
    request.setUrn(urn);
    request.setType(type);
    request.setOlds(struct(olds));
    request.setNews(struct(news));
    const response = await this.#call<unknown, InstanceType<typeof providerProto.CheckResponse>>(
      "check",
      request,
    );
    return { inputs: plain(response.getInputs()), failures: failuresOf(response) };
  }

  async diff(type: string, urn: string, id: string, olds: Properties, news: Properties) {
    const request = new providerProto.DiffRequest();
    request.setUrn(urn);
    request.setType(type);
    request.setId(id);
    request.setOlds(struct(olds));
    request.setNews(struct(news));
    const response = await this.#call<unknown, InstanceType<typeof providerProto.DiffResponse>>(
      "diff",
      request,
    );
    const kinds = Object.fromEntries(
      Object.entries(providerProto.PropertyDiff.Kind).map(([name, value]) => [value, name]),
    ) as Record<number, string>;
    const detailedDiff: Record<string, string> = {};
    response.getDetaileddiffMap().forEach((diff, key) => (detailedDiff[key] = kinds[diff.getKind()]!));
    return {
      changes: response.getChanges() === providerProto.DiffResponse.DiffChanges.DIFF_SOME,
      replaces: response.getReplacesList(),
      hasDetailedDiff: response.getHasdetaileddiff(),
      detailedDiff,
    };
  }

  async create(type: string, urn: string, properties: Properties) {
    const request = new providerProto.CreateRequest();
    request.setUrn(urn);
    request.setType(type);
    request.setProperties(struct(properties));
    const response = await this.#call<unknown, InstanceType<typeof providerProto.CreateResponse>>(
      "create",
      request,
    );
    return { id: response.getId(), outputs: plain(response.getProperties()) };
  }

  async read(type: string, urn: string, id: string, properties: Properties = {}, inputs: Properties = {}) {
    const request = new providerProto.ReadRequest();
    request.setUrn(urn);
    request.setType(type);
    request.setId(id);
    request.setProperties(struct(properties));
    request.setInputs(struct(inputs));
    const response = await this.#call<unknown, InstanceType<typeof providerProto.ReadResponse>>(
      "read",
      request,
    );
    return {
      id: response.getId(),
      outputs: plain(response.getProperties()),
      inputs: plain(response.getInputs()),
    };
  }

  async update(type: string, urn: string, id: string, olds: Properties, news: Properties) {
    const request = new providerProto.UpdateRequest();
    request.setUrn(urn);
    request.setType(type);
    request.setId(id);
    request.setOlds(struct(olds));
    request.setNews(struct(news));
    const response = await this.#call<unknown, InstanceType<typeof providerProto.UpdateResponse>>(
      "update",
      request,
    );
    return { outputs: plain(response.getProperties()) };
  }

  async delete(type: string, urn: string, id: string, properties: Properties): Promise<void> {
    const request = new providerProto.DeleteRequest();
    request.setUrn(urn);
    request.setType(type);
    request.setId(id);
    request.setProperties(struct(properties));
    await this.#call("delete", request);
  }

  async invoke(token: string, args: Properties) {
    const request = new providerProto.InvokeRequest();
    request.setTok(token);
    request.setArgs(struct(args));
    const response = await this.#call<unknown, InstanceType<typeof providerProto.InvokeResponse>>(
      "invoke",
      request,
    );
    return { result: plain(response.getReturn()), failures: failuresOf(response) };
  }
}

function failuresOf(response: { getFailuresList(): { getProperty(): string; getReason(): string }[] }) {
  return response
    .getFailuresList()
    .map((failure) => ({ property: failure.getProperty(), reason: failure.getReason() }));
}
