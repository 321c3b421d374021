import type { ResourceOutputs } from "../sdk/nodejs/resources/resourceDescriptor.ts";
import type { DescriptorOf, ResourceKind } from "../sdk/nodejs/resources/resourceTypes.ts";
import type { CheckResult } from "./check.ts";
import type { CheckedInputs, DiffInputs } from "./inputs.ts";
import type { NO_LONGER_EXISTS } from "./notFound.ts";
import type { ResourceDiff } from "./resourceDiff.ts";
import type { ServiceConnection } from "./serviceConnection.ts";

/**
 * What the implementation of a resource kind must offer, typed by the kind's descriptor
 * (sdk/nodejs/resources/): the dynamic provider's methods, each taking first the way to the service (the
 * connection, made on first use from the configuration). A kind's implementation writes and reads
 * that kind's outputs, so an implementation whose state does not match its descriptor's outputs
 * fails to compile. Both adapters (the dynamic provider and the native plugin) call through this.
 */

/** What a kind keeps in state: its descriptor's outputs, and the URN its requestIds derive from. */
export type StoredOutputs<K extends ResourceKind> = ResourceOutputs<DescriptorOf<K>> & {
  resourceUrn: string;
};

/**
 * A program's inputs as the engine hands them to check(), and the inputs read() answers: not typed
 * further, since check() is what judges them. create, update and diff receive the kind's checked
 * inputs instead, typed by its descriptor (inputs.ts reads them once, in the adapter).
 */
export type EngineInputs = Record<string, unknown>;

/** What read() is given: the state so far; on `pulumi import` only the URN (and the id) is known. */
export type ReadState<K extends ResourceKind> = Partial<StoredOutputs<K>> & { resourceUrn: string };

/** read()'s answer: the resource as the service has it now, or gone. */
export type ReadAnswer<K extends ResourceKind> =
  { id: string; props: StoredOutputs<K>; inputs: EngineInputs } | typeof NO_LONGER_EXISTS;

/** Each method's arguments (after the connection) and answer, for kind K. */
export interface ResourceMethods<K extends ResourceKind> {
  check: { args: [olds: EngineInputs, news: EngineInputs]; answer: CheckResult };
  diff: { args: [id: string, olds: StoredOutputs<K>, news: DiffInputs<K>]; answer: ResourceDiff };
  create: { args: [news: CheckedInputs<K>]; answer: { id: string; outs: StoredOutputs<K> } };
  read: { args: [id: string, props: ReadState<K>]; answer: ReadAnswer<K> };
  update: {
    args: [id: string, olds: StoredOutputs<K>, news: CheckedInputs<K>];
    answer: { outs: StoredOutputs<K> };
  };
  delete: { args: [id: string, props: StoredOutputs<K>]; answer: void };
}
export type ResourceMethod = keyof ResourceMethods<ResourceKind>;
export type MethodArgs<K extends ResourceKind, M extends ResourceMethod> = ResourceMethods<K>[M]["args"];
export type MethodAnswer<K extends ResourceKind, M extends ResourceMethod> = ResourceMethods<K>[M]["answer"];

/**
 * Each method's arguments as an adapter passes them: the engine's inputs untyped where the
 * implementation receives them typed (implementation.ts reads them once, through inputs.ts).
 */
export type EngineArgs<K extends ResourceKind, M extends ResourceMethod> = M extends "create"
  ? [news: EngineInputs]
  : M extends "update" | "diff"
    ? [id: string, olds: StoredOutputs<K>, news: EngineInputs]
    : MethodArgs<K, M>;

/** The implementation of kind K. */
export type ResourceImplementation<K extends ResourceKind> = {
  [M in ResourceMethod]: (
    connect: () => ServiceConnection,
    ...args: MethodArgs<K, M>
  ) => Promise<MethodAnswer<K, M>>;
};
