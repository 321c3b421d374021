import * as grpc from "@grpc/grpc-js";
import emptyProto from "google-protobuf/google/protobuf/empty_pb.js";
import structProto from "google-protobuf/google/protobuf/struct_pb.js";
import pluginProto from "@pulumi/pulumi/proto/plugin_pb.js";
import providerGrpc from "@pulumi/pulumi/proto/provider_grpc_pb.js";
import providerProto from "@pulumi/pulumi/proto/provider_pb.js";
import type { CheckFailure } from "../check.ts";
import { urnParts } from "../../sdk/nodejs/resources/urn.ts";
import { topLevelProperty } from "../propertyPaths.ts";
import type { PropertyChange } from "../resourceDiff.ts";
import { configFromEngine, configProblems, plaintextSecretWarnings, sameConfig } from "./configuration.ts";
import { providerProcess } from "../providerProcess.ts";
import { nativeProvider, type ResourceRef } from "./nativeProvider.ts";

/**
 * The ResourceProvider gRPC service of `pulumi-resource-portfolio-wallet`, served directly with the
 * stubs `@pulumi/pulumi/proto` ships (as the SDK's own dynamic-provider host does). Only the
 * translation between protobuf messages and plain values lives here; every decision is
 * nativeProvider.ts's, and through it the one implementation's. docs/architecture.md says why
 * this and not `provider.main` from `@pulumi/pulumi/provider`.
 */

type Properties = Record<string, unknown>;
type Struct = InstanceType<typeof structProto.Struct>;

const propertiesOf = (struct: Struct | undefined): Properties => (struct?.toJavaScript() ?? {}) as Properties;
const structOf = (properties: Properties): Struct =>
  structProto.Struct.fromJavaScript(properties as Record<string, structProto.JavaScriptValue>);

function failuresOf(failures: readonly CheckFailure[]) {
  return failures.map((failure) => {
    const message = new providerProto.CheckFailure();
    message.setProperty(failure.property);
    message.setReason(failure.reason);
    return message;
  });
}

const PROPERTY_DIFF_KINDS = {
  add: [providerProto.PropertyDiff.Kind.ADD, providerProto.PropertyDiff.Kind.ADD_REPLACE],
  update: [providerProto.PropertyDiff.Kind.UPDATE, providerProto.PropertyDiff.Kind.UPDATE_REPLACE],
  delete: [providerProto.PropertyDiff.Kind.DELETE, providerProto.PropertyDiff.Kind.DELETE_REPLACE],
} as const;

function propertyDiffOf(change: PropertyChange) {
  const message = new providerProto.PropertyDiff();
  message.setKind(PROPERTY_DIFF_KINDS[change.kind][change.replaces ? 1 : 0]);
  // Between the old inputs and the new: what the program changed, as a reviewer reads it.
  message.setInputdiff(true);
  return message;
}

/** A request's resource: its URN, and its type token (read from the URN when the engine leaves `type` empty). */
function resourceOf(request: { getUrn(): string; getType?(): string }): ResourceRef {
  const urn = request.getUrn();
  const type = request.getType?.() || urnParts(urn).type;
  return { urn, type };
}

/** Runs a handler and answers through the callback; an error is a gRPC error carrying its message. */
function unary<Request, Response>(
  handle: (request: Request) => Promise<Response>,
): grpc.handleUnaryCall<Request, Response> {
  return (call, callback) => {
    handle(call.request).then(
      (response) => callback(null, response),
      (error: unknown) =>
        callback({
          code: grpc.status.UNKNOWN,
          details: error instanceof Error ? error.message : String(error),
        }),
    );
  };
}

function unimplemented(method: string): grpc.handleUnaryCall<unknown, unknown> {
  return (_call, callback) =>
    callback({
      code: grpc.status.UNIMPLEMENTED,
      details: `${method} is not implemented by the portfolio-wallet provider`,
    });
}

/** The service's handlers. `schemaText` is the package schema (schema.json), `version` the plugin's. */
export function resourceProviderHandlers(schemaText: string, version: string) {
  return {
    getPluginInfo: unary(async () => {
      const info = new pluginProto.PluginInfo();
      info.setVersion(version);
      return info;
    }),

    getSchema: unary(async () => {
      const response = new providerProto.GetSchemaResponse();
      response.setSchema(schemaText);
      return response;
    }),

    checkConfig: unary(async (request: InstanceType<typeof providerProto.CheckRequest>) => {
      const news = propertiesOf(request.getNews());
      const response = new providerProto.CheckResponse();
      response.setInputs(structOf(news));
      response.setFailuresList(failuresOf(configProblems(news)));
      return response;
    }),

    diffConfig: unary(async (request: InstanceType<typeof providerProto.DiffRequest>) => {
      const response = new providerProto.DiffResponse();
      // A new token, URL or approver applies to the next calls: no resource is ever replaced for it.
      const same = sameConfig(propertiesOf(request.getOldInputs()), propertiesOf(request.getNews()));
      response.setChanges(
        same
          ? providerProto.DiffResponse.DiffChanges.DIFF_NONE
          : providerProto.DiffResponse.DiffChanges.DIFF_SOME,
      );
      return response;
    }),

    configure: unary(async (request: InstanceType<typeof providerProto.ConfigureRequest>) => {
      const variables: Record<string, string> = {};
      request.getVariablesMap().forEach((value, key) => (variables[key] = value));
      const args = propertiesOf(request.getArgs());
      nativeProvider.configure(configFromEngine(args, variables));
      // Here rather than in checkConfig: only configure's arguments arrive with secrets marked.
      await providerProcess.engineLog.forResource(request.getUrn() || undefined, async () => {
        for (const warning of plaintextSecretWarnings(args))
          providerProcess.engineLog.say("warning", warning);
      });
      const response = new providerProto.ConfigureResponse();
      response.setAcceptsecrets(true);
      // Never asked to create or update during a preview: a preview makes no request that changes anything.
      response.setSupportspreview(false);
      response.setAcceptresources(false);
      response.setAcceptoutputs(false);
      return response;
    }),

    invoke: unary(async (request: InstanceType<typeof providerProto.InvokeRequest>) => {
      const { result, failures } = await nativeProvider.invoke(
        request.getTok(),
        propertiesOf(request.getArgs()),
      );
      const response = new providerProto.InvokeResponse();
      response.setReturn(structOf(result));
      response.setFailuresList(failuresOf(failures));
      return response;
    }),

    check: unary(async (request: InstanceType<typeof providerProto.CheckRequest>) => {
      const { inputs, failures } = await nativeProvider.check(
        resourceOf(request),
        propertiesOf(request.getOlds()),
        propertiesOf(request.getNews()),
      );
      const response = new providerProto.CheckResponse();
      response.setInputs(structOf(inputs));
      response.setFailuresList(failuresOf(failures));
      return response;
    }),

    diff: unary(async (request: InstanceType<typeof providerProto.DiffRequest>) => {
      const diff = await nativeProvider.diff(
        resourceOf(request),
        request.getId(),
        propertiesOf(request.getOlds()),
        propertiesOf(request.getNews()),
      );
      const response = new providerProto.DiffResponse();
      response.setChanges(
        diff.changes
          ? providerProto.DiffResponse.DiffChanges.DIFF_SOME
          : providerProto.DiffResponse.DiffChanges.DIFF_NONE,
      );
      response.setReplacesList(diff.replaces);
      response.setDeletebeforereplace(diff.deleteBeforeReplace);
      response.setDiffsList(Object.keys(diff.detailedDiff).map(topLevelProperty));
      const detailed = response.getDetaileddiffMap();
      for (const [path, change] of Object.entries(diff.detailedDiff))
        detailed.set(path, propertyDiffOf(change));
      response.setHasdetaileddiff(true);
      return response;
    }),

    create: unary(async (request: InstanceType<typeof providerProto.CreateRequest>) => {
      const { id, outputs } = await nativeProvider.create(
        resourceOf(request),
        propertiesOf(request.getProperties()),
      );
      const response = new providerProto.CreateResponse();
      response.setId(id);
      response.setProperties(structOf(outputs));
      return response;
    }),

    read: unary(async (request: InstanceType<typeof providerProto.ReadRequest>) => {
      const result = await nativeProvider.read(
        resourceOf(request),
        request.getId(),
        propertiesOf(request.getProperties()),
        propertiesOf(request.getInputs()),
      );
      const response = new providerProto.ReadResponse();
      response.setId(result.id);
      response.setProperties(structOf(result.outputs));
      response.setInputs(structOf(result.inputs));
      return response;
    }),

    update: unary(async (request: InstanceType<typeof providerProto.UpdateRequest>) => {
      const { outputs } = await nativeProvider.update(
        resourceOf(request),
        request.getId(),
        propertiesOf(request.getOlds()),
        propertiesOf(request.getNews()),
      );
      const response = new providerProto.UpdateResponse();
      response.setProperties(structOf(outputs));
      return response;
    }),

    delete: unary(async (request: InstanceType<typeof providerProto.DeleteRequest>) => {
      await nativeProvider.delete(
        resourceOf(request),
        request.getId(),
        propertiesOf(request.getProperties()),
      );
      return new emptyProto.Empty();
    }),

    cancel: unary(async () => new emptyProto.Empty()),
    attach: unimplemented("Attach"),
    handshake: unimplemented("Handshake"),
    parameterize: unimplemented("Parameterize"),
    call: unimplemented("Call"),
    construct: unimplemented("Construct"),
    getMapping: unimplemented("GetMapping"),
    getMappings: unimplemented("GetMappings"),
    list: (call: grpc.ServerWritableStream<unknown, unknown>) =>
      call.emit("error", { code: grpc.status.UNIMPLEMENTED, details: "List is not implemented" }),
  };
}

/** gRPC message limits as the engine's own clients use (a large schema or state fits). */
const MAX_MESSAGE_BYTES = 400 * 1024 * 1024;

/** Starts the service on a free loopback port; answers the port. */
export async function serveResourceProvider(
  schemaText: string,
  version: string,
): Promise<{
  port: number;
  server: grpc.Server;
}> {
  const server = new grpc.Server({
    "grpc.max_receive_message_length": MAX_MESSAGE_BYTES,
    "grpc.max_send_message_length": MAX_MESSAGE_BYTES,
  });
  server.addService(
    providerGrpc.ResourceProviderService,
    resourceProviderHandlers(schemaText, version) as unknown as grpc.UntypedServiceImplementation,
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return { port, server };
}
