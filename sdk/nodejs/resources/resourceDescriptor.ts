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
export interface ResourceDescriptor<
  Kind extends string = string,
  Inputs extends z.ZodObject = z.ZodObject,
  Outputs extends z.ZodObject = z.ZodObject,
  Type extends string = string,
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
  /**
   * What the kind is to a wallet's allocation: `owns` (a wallet and its target weights), `manages`
   * (the target weights of a wallet made elsewhere) or `none`. The pull-request report, the drift
   * check and the policies read this rather than naming kinds, so a new kind cannot fall into
   * another kind's branch unnoticed.
   */
  allocation: "owns" | "manages" | "none";
  /** The output that holds the service's id of what the resource stands for. */
  serviceIdOutput: keyof z.output<Outputs> & string;
  /** The inputs as check() validates them (`resourceUrn` included: the classes set it). */
  inputs: Inputs;
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

/** The input every class sets: the URN the requestIds derive from (dynamic providers are not told it). */
export const ResourceUrnSchema = z.string().min(1, "is set by the resource class; do not pass it yourself");

/** A descriptor with its exact types kept (what each descriptor file declares with). */
export const describeResource = <
  Kind extends string,
  Inputs extends z.ZodObject,
  Outputs extends z.ZodObject,
  Type extends string,
>(
  descriptor: ResourceDescriptor<Kind, Inputs, Outputs, Type>,
) => descriptor;

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
