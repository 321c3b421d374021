import { AsyncLocalStorage } from "node:async_hooks";
import * as grpc from "@grpc/grpc-js";
import engineGrpc from "@pulumi/pulumi/proto/engine_grpc_pb.js";
import engineProto from "@pulumi/pulumi/proto/engine_pb.js";

/**
 * Messages from the provider to the person running Pulumi, through the engine's `Log` call: the
 * engine prints them beside the resource they concern, in the terminal and in a pipeline's log.
 * A provider process is handed the engine's address as its last argument (both the dynamic
 * provider's host and the native plugin); without one (the provider's code run in a test, say)
 * messages are dropped. Every resource call runs inside `forResource`, so a message said deep in
 * a request (a retry's wait) lands on the resource that made it.
 */

type EngineClient = InstanceType<typeof engineGrpc.EngineClient>;

export type LogSeverity = "info" | "warning";

export class EngineLog {
  readonly #resource = new AsyncLocalStorage<string>();
  #client: EngineClient | undefined;
  #address: string | undefined;

  /** Where the engine listens (`127.0.0.1:PORT`); set once per process. */
  connectTo(address: string | undefined): void {
    if (address === undefined || address === this.#address || !/^[\w.[\]:-]+:\d+$/.test(address)) return;
    this.#client?.close();
    this.#address = address;
    // The generic constructor of this package's own grpc-js, so credentials and client are of one copy.
    const Client = grpc.makeGenericClientConstructor(engineGrpc.EngineService, "Engine");
    this.#client = new Client(address, grpc.credentials.createInsecure()) as unknown as EngineClient;
  }

  /** Runs `call` with messages said during it attributed to the resource `urn`. */
  forResource<T>(urn: string | undefined, call: () => Promise<T>): Promise<T> {
    return urn === undefined ? call() : this.#resource.run(urn, call);
  }

  /**
   * Says `message` on the current resource. `ephemeral` messages are status updates, shown while
   * the step runs and then replaced; the others stay in the output, which is what a pipeline's log
   * keeps. Never throws: a message that cannot be delivered is not worth failing a deployment for.
   */
  say(severity: LogSeverity, message: string, options: { ephemeral?: boolean } = {}): void {
    const client = this.#client;
    if (client === undefined) return;
    const request = new engineProto.LogRequest();
    request.setSeverity(
      severity === "warning" ? engineProto.LogSeverity.WARNING : engineProto.LogSeverity.INFO,
    );
    request.setMessage(message);
    request.setUrn(this.#resource.getStore() ?? "");
    request.setEphemeral(options.ephemeral === true);
    try {
      client.log(request, () => {});
    } catch {
      // the engine went away; nothing to tell it
    }
  }

  close(): void {
    this.#client?.close();
    this.#client = undefined;
    this.#address = undefined;
  }
}
