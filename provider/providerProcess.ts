import type { ConfigSource } from "../sdk/nodejs/stackSettings.ts";
import { EngineLog } from "./engineLog.ts";
import { ServiceConnectionPool, type ServiceConnection } from "./serviceConnection.ts";

/**
 * What one provider process holds for the deployment it serves: the stack configuration the
 * engine handed to `configure`, the connections to the service made from it, and the way back to
 * the engine for messages. One process serves one deployment of one stack, so one value per
 * process is right; this is its only owner. Settings, secrets included, are resolved from the
 * configuration at call time and never serialized.
 */
class ProviderProcess {
  #configuration: ConfigSource | undefined;
  readonly engineLog = new EngineLog();
  readonly #connections = new ServiceConnectionPool({ engineLog: this.engineLog });
  #closeOnInterrupt = false;

  /**
   * The engine's address, for messages. The native plugin passes the one it was started with; the
   * dynamic provider's host keeps its own to itself, so it is read from that host's arguments here.
   */
  attachToEngine(address: string | undefined = dynamicProviderHostEngineAddress()): void {
    this.engineLog.connectTo(address);
  }

  configure(source: ConfigSource | undefined): void {
    this.#configuration = source;
    this.attachToEngine();
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
      void Promise.race([this.#connections.closeAll(), atMostOneSecond]).finally(() => {
        this.engineLog.close();
        process.exit();
      });
    });
  }
}

/**
 * The engine's address when this process is Pulumi's dynamic-provider host: the engine starts
 * every plugin with its address as the last argument. Undefined in any other process (a test, the
 * command-line tool), where the argument list means something else.
 */
function dynamicProviderHostEngineAddress(): string | undefined {
  const script = process.argv[1] ?? "";
  return /[\\/]dynamic-provider([\\/]index\.js)?$/.test(script) ? process.argv.at(-1) : undefined;
}

export const providerProcess = new ProviderProcess();
