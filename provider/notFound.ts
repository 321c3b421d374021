import { NotFoundError } from "../sdk/nodejs/client/index.ts";

/**
 * The answer of a request, or `undefined` when the service says the thing is not there (404):
 * what refresh and delete need to leave state cleanly instead of failing.
 */
export async function unlessNotFound<T>(request: Promise<T>): Promise<T | undefined> {
  try {
    return await request;
  } catch (error) {
    if (NotFoundError.isInstance(error)) return undefined;
    throw error;
  }
}

/** What read() returns for a resource that no longer exists: the engine drops it from state. */
export const NO_LONGER_EXISTS = { id: "", props: {} } as const;
