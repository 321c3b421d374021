import type { ConfigSource } from "../sdk/stackSettings.ts";
import { ServiceConnectionPool, type ServiceConnection } from "./serviceConnection.ts";

/**
 * What one dynamic-provider process holds for the deployment it serves: the stack configuration
 * the engine handed to `configure`, and the connections to the service made from it. One process serves one
 * deployment of one stack, so one value per process is right; this is its only owner. Settings,
 * secrets included, are resolved from the configuration at call time and never serialized.
 */
class ProviderProcess {
  #configuration: ConfigSource | undefined;
  readonly #connections = new ServiceConnectionPool();
  #closeOnInterrupt = false;

  configure(source: ConfigSource | undefined): void {
    this.#configuration = source;
    this.#closeConnectionsWhenInterrupted();
  }

  /** The connection for the current configuration (a configuration error throws here, before any request). */
  connection(): ServiceConnection {
    return this.#connections.for(this.#configuration);
  }

  /**
   * The engine ends a provider with SIGINT and kills it 5 s later. Close the connection pools
   * first, within a second, then exit as SIGINT would have.
   */
  #closeConnectionsWhenInterrupted(): void {
    if (this.#closeOnInterrupt) return;
    this.#closeOnInterrupt = true;
    process.once("SIGINT", () => {
      const atMostOneSecond = new Promise((resolve) => setTimeout(resolve, 1_000).unref());
      void Promise.race([this.#connections.closeAll(), atMostOneSecond]).finally(() => process.exit());
    });
  }
}

export const providerProcess = new ProviderProcess();
