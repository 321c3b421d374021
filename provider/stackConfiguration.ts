import type { ConfigSource } from "../sdk/settings.ts";

/**
 * The stack configuration the engine hands to the provider's `configure`, kept for the calls that
 * follow. One dynamic-provider process serves one deployment of one stack, so one value per
 * process is right; it lives here and nowhere else, is read at call time, and is never serialized
 * (settings, including secrets, are resolved from it per call: sdk/settings.ts).
 */
let configured: ConfigSource | undefined;

export const stackConfiguration = {
  remember(source: ConfigSource | undefined): void {
    configured = source;
  },
  current(): ConfigSource | undefined {
    return configured;
  },
};
