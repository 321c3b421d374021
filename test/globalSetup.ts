import { ensureBuilt } from "../scripts/build.ts";

/**
 * Before any test: dist/ must match the sources. The repo's own Pulumi programs (examples, e2e
 * fixtures) and the serialized provider resolve `@portfolio-wallet/pulumi` to the build, as an
 * installed copy does; a stale build would test old code.
 */
export default async function setup(): Promise<void> {
  await ensureBuilt();
}
