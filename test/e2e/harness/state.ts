import type { Stack } from "@pulumi/pulumi/automation/index.js";

// The checkpoint format (apitype.DeploymentV3) as far as the tests read it; values are loose JSON.
/* eslint-disable @typescript-eslint/no-explicit-any */
export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs: Record<string, any>;
  outputs: Record<string, any>;
}

export interface PendingOperation {
  type: string;
  resource: StateResource;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

export interface StackState {
  resources: StateResource[];
  /** Operations the engine started but never saw finish (a killed `up`). */
  pendingOperations: PendingOperation[];
  find(urn: string): StateResource | undefined;
  /** The resource, which must be in state. */
  resource(urn: string): StateResource;
}

/** The stack's checkpoint, through `pulumi stack export`. */
export async function stateOf(stack: Stack): Promise<StackState> {
  const { deployment } = await stack.exportStack();
  const resources: StateResource[] = deployment?.resources ?? [];
  const find = (urn: string) => resources.find((resource) => resource.urn === urn);
  return {
    resources,
    pendingOperations: deployment?.pending_operations ?? [],
    find,
    resource(urn) {
      const found = find(urn);
      if (found === undefined) throw new Error(`${urn} is not in the state of stack ${stack.name}`);
      return found;
    },
  };
}
