import type { ConfigSource } from "../sdk/stackSettings.ts";
import { ServiceClientPool, type ServiceClients } from "./serviceClients.ts";

/**
 * What one dynamic-provider process holds for the deployment it serves: the stack configuration
 * the engine handed to `configure`, and the clients made from it. One process serves one
 * deployment of one stack, so one value per process is right; this is its only owner. Settings,
 * secrets included, are resolved from the configuration at call time and never serialized.
 */
class ProviderProcess {
  #configuration: ConfigSource | undefined;
  readonly #clients = new ServiceClientPool();
  #closeOnInterrupt = false;

  configure(source: ConfigSource | undefined): void {
    this.#configuration = source;
    this.#closeClientsWhenInterrupted();
  }

  /** The clients for the current configuration (a configuration error throws here, before any request). */
  clients(): ServiceClients {
    return this.#clients.for(this.#configuration);
  }

  /**
   * The engine ends a provider with SIGINT and kills it 5 s later. Close the connection pools
   * first, within a second, then exit as SIGINT would have.
   */
  #closeClientsWhenInterrupted(): void {
    if (this.#closeOnInterrupt) return;
    this.#closeOnInterrupt = true;
    process.once("SIGINT", () => {
      const atMostOneSecond = new Promise((resolve) => setTimeout(resolve, 1_000).unref());
      void Promise.race([this.#clients.closeAll(), atMostOneSecond]).finally(() => process.exit());
    });
  }
}

export const providerProcess = new ProviderProcess();
