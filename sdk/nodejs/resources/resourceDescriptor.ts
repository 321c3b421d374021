import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";

/**
 * What describes one resource kind, written once, beside its class: its type names, the inputs
 * the provider checks and the outputs it writes (zod schemas; the JSDoc on each output's key is
 * its documentation), and which outputs are secret. Everything else follows from it: the class's
 * output properties and their placeholders (packageResource.ts), `additionalSecretOutputs`, the
 * native plugin's secret handling, the package schema (scripts/packageSchema/), and the type of
 * the implementation that serves the kind (provider/implementation.ts). This is pulumi-go-provider's
 * `infer.Resource[I, O]` in TypeScript.
 */
export interface DescriptorFields<
  Kind extends string,
  Inputs extends z.ZodObject,
  Outputs extends z.ZodObject,
  Type extends string,
  Checked extends z.ZodObject,
> {
  /** The kind's name in this package's tables (`portfolioWallet`). */
  kind: Kind;
  /** The class name and the native type (`PortfolioWallet`: `portfolio-wallet:index:PortfolioWallet`). */
  type: Type;
  /** The dynamic resource's module (`portfoliowallet`: `pulumi-nodejs:dynamic/portfoliowallet:PortfolioWallet`). */
  module: string;
  /**
   * The file of the class and its `<type>Args` (an ArgsOf of the kind's inputs shape): the class's
   * JSDoc documents the kind, the JSDoc on each key of the inputs shape each input.
   */
  classFile: string;
  /** The output that holds the service's id of what the resource stands for. */
  serviceIdOutput: keyof z.output<Outputs> & string;
  /** The inputs as check() validates them (`resourceUrn` included: the classes set it). */
  inputs: Inputs;
  /**
   * The inputs as check() hands them on (JSON, kept by the engine) and as create, update and diff
   * receive them, typed (`z.output`): the one parse of them is the adapter's (provider/implementation.ts),
   * as pulumi-go-provider's `infer` hands each method its typed `I`.
   */
  checkedInputs: Checked;
  /** The outputs as the implementation writes them into state. */
  outputs: Outputs;
  /** Outputs that are secret whatever the inputs. */
  secretOutputs: readonly (keyof z.output<Outputs> & string)[];
  /**
   * A secret input makes these outputs secret too, besides the output of its own name (the
   * allocation's program form, `positions`, lives on as `targetWeightsBps` and in the change).
   */
  secretCarriesOver: Readonly<Record<string, readonly (keyof z.output<Outputs> & string)[]>>;
}

/**
 * Where a kind that owns or manages an allocation keeps it, by name: what the policy pack, the
 * report, drift, approvals and the native plugin read instead of naming properties themselves.
 * Each name is checked against the kind's schemas, so a misspelt or missing one does not compile.
 */
export interface AllocationFields<
  Inputs extends z.ZodObject = z.ZodObject,
  Outputs extends z.ZodObject = z.ZodObject,
  Checked extends z.ZodObject = z.ZodObject,
> {
  /** The property naming the wallet: an output, and for a kind that manages a wallet an input too. */
  walletId: keyof z.output<Outputs> & string;
  /** The input that adopts an existing wallet, for a kind that owns one. */
  adoptWalletId?: keyof z.input<Inputs> & string;
  /** The program's allocation input, `positions`: an array of { positionKey, targetWeightBps }. */
  positions: keyof z.input<Inputs> & string;
  /** The allocation as a map, in the checked inputs and in state (`targetWeightsBps`). */
  weights: keyof z.input<Checked> & keyof z.output<Outputs> & string;
  /** The output holding the latest strategy change (`strategyChange`). */
  strategyChange: keyof z.output<Outputs> & string;
}

/**
 * What the kind is to a wallet's allocation: `owns` (a wallet and its target weights), `manages`
 * (the target weights of a wallet made elsewhere) or `none`. The pull-request report, the drift
 * check and the policies read this rather than naming kinds, so a new kind cannot fall into
 * another kind's branch unnoticed; a kind that owns or manages one must say where it keeps it
 * (`allocationFields`), or its descriptor does not compile.
 */
export type AllocationRole<
  Inputs extends z.ZodObject = z.ZodObject,
  Outputs extends z.ZodObject = z.ZodObject,
  Checked extends z.ZodObject = z.ZodObject,
> =
  | { allocation: "none"; allocationFields?: undefined }
  | { allocation: "owns" | "manages"; allocationFields: AllocationFields<Inputs, Outputs, Checked> };

/**
 * What describes one resource kind, written once, beside its class: its type names, the inputs
 * the provider checks, the checked inputs it hands on and the outputs it writes (zod schemas; the
 * JSDoc on each output's key is its documentation), which outputs are secret, and where it keeps an
 * allocation. Everything else follows from it: the class's output properties and their placeholders
 * (packageResource.ts), `additionalSecretOutputs`, the native plugin's secret handling, the package
 * schema (scripts/packageSchema/), and the types of the implementation that serves the kind
 * (provider/resourceImplementation.ts). This is pulumi-go-provider's `infer.Resource[I, O]` in TypeScript.
 */
export type ResourceDescriptor<
  Kind extends string = string,
  Inputs extends z.ZodObject = z.ZodObject,
  Outputs extends z.ZodObject = z.ZodObject,
  Type extends string = string,
  Checked extends z.ZodObject = z.ZodObject,
> = DescriptorFields<Kind, Inputs, Outputs, Type, Checked> & AllocationRole<Inputs, Outputs, Checked>;

/** The input every class sets: the URN the requestIds derive from (dynamic providers are not told it). */
export const ResourceUrnSchema = z.string().min(1, "is set by the resource class; do not pass it yourself");

/** A descriptor with its exact types kept (what each descriptor file declares with). */
export const describeResource = <
  Kind extends string,
  Inputs extends z.ZodObject,
  Outputs extends z.ZodObject,
  Type extends string,
  Checked extends z.ZodObject,
  Role extends AllocationRole<Inputs, Outputs, Checked>,
>(
  descriptor: DescriptorFields<Kind, Inputs, Outputs, Type, Checked> & Role,
) => descriptor;

/** The checked inputs of a kind, typed: what create, update and diff receive. */
export type CheckedInputsOf<D extends ResourceDescriptor> = z.output<D["checkedInputs"]>;

/** A value as a program passes it: the value or an Output of it, and for an array each element too. */
type ProgramInput<T> = [T] extends [readonly (infer Element)[]]
  ? pulumi.Input<pulumi.Input<Element>[]>
  : pulumi.Input<T>;

/** Each input of a shape as a program passes it, optional where zod's input is. */
type ProgramInputs<Inputs, Narrowed> = {
  [K in keyof Inputs]: ProgramInput<Exclude<K extends keyof Narrowed ? Narrowed[K] : Inputs[K], undefined>>;
};

/**
 * A kind's `<Type>Args`, derived from the inputs shape its descriptor validates (so an input is
 * written once): each input bar `resourceUrn` (the class sets it), as a program passes it. It maps
 * over the shape's keys, so the JSDoc on each key shows on hover; the shape is an exported object
 * literal, because declaration emit keeps the JSDoc of such an object's keys in the published
 * .d.ts (and drops it inside a call such as `z.object({...})`). `Narrowed` gives an input a program
 * type tighter than what check() accepts: check() takes any array as `positions`, to report every
 * problem in it, while a program is told the shape of a position.
 */
export type ArgsOf<
  Shape extends z.ZodRawShape,
  Narrowed extends { [K in keyof Shape]?: unknown } = Record<never, never>,
> = Omit<ProgramInputs<z.input<z.ZodObject<Shape>>, Narrowed>, "resourceUrn">;

/** The outputs a kind writes into state, as plain values. */
export type ResourceOutputs<D extends ResourceDescriptor> = z.output<D["outputs"]>;

/**
 * The output properties of a resource class: every output, as an Output of its value (an optional
 * output reads `Output<T | undefined>`, as Pulumi resolves it). Merged into the class by an
 * interface of the same name; the JSDoc of each key of the outputs schema shows on hover.
 */
export type OutputProperties<D extends ResourceDescriptor> = {
  readonly [K in keyof Required<ResourceOutputs<D>>]: pulumi.Output<ResourceOutputs<D>[K]>;
};

/**
 * Outputs a class registers as `undefined` so the engine tracks them: those that are not inputs
 * too (an input the program passes is an output already). Each property costs the program time per
 * resource (the SDK tracks every one), so there are no more than that.
 */
export function outputPlaceholdersOf(descriptor: ResourceDescriptor): Record<string, undefined> {
  return Object.fromEntries(
    Object.keys(descriptor.outputs.shape)
      .filter((name) => !(name in descriptor.inputs.shape))
      .map((name) => [name, undefined]),
  );
}

/** The package name of the native provider: its plugin is `pulumi-resource-portfolio-wallet`. */
export const PACKAGE_NAME = "portfolio-wallet";

/** The dynamic resource's type token, e.g. `pulumi-nodejs:dynamic/portfoliowallet:PortfolioWallet`. */
export function dynamicTypeToken(descriptor: Pick<ResourceDescriptor, "module" | "type">): string {
  return `pulumi-nodejs:dynamic/${descriptor.module}:${descriptor.type}`;
}

/** The native provider's type token, e.g. `portfolio-wallet:index:PortfolioWallet`. */
export function nativeTypeToken(descriptor: Pick<ResourceDescriptor, "type">): string {
  return `${PACKAGE_NAME}:index:${descriptor.type}`;
}
