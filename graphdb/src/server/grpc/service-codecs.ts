import type { MethodDefinition, ServiceDefinition } from "@grpc/grpc-js";
import { type ApiResponse, apiPackageDefinition, encodeResponse } from "./grpc-proto.ts";
import { checkWireFormat, WireShapes } from "./grpc-wire-check.ts";

/** What the request deserializer hands over instead of throwing, so the reply can say what was wrong. */
export class MalformedMessage {
  constructor(readonly reason: string) {}
}

/**
 * The service with strict request deserializers that do not throw: the wire format is checked first
 * (protobufjs alone decodes malformed input leniently), and a message that is not well-formed becomes a
 * MalformedMessage, which the handler reports as grpc-go does — grpc-js would only say
 * `Error deserializing request`. `api.Response` is encoded directly (the hot path).
 */
export function serviceWithCodecs(service: ServiceDefinition): ServiceDefinition {
  const shapes = new WireShapes(apiPackageDefinition(), "api");
  const out: Record<string, MethodDefinition<unknown, unknown>> = {};
  for (const [name, method] of Object.entries(service)) {
    const decode = method.requestDeserialize;
    const types = method as {
      requestType?: { type?: { name?: string } };
      responseType?: { type?: { name?: string } };
    };
    const requestType = types.requestType?.type?.name;
    if (!requestType) throw new Error(`api.Dgraph/${name}: request type unknown`);
    const shape = shapes.shape(`api.${requestType}`);
    out[name] = {
      ...method,
      responseSerialize:
        types.responseType?.type?.name === "Response"
          ? (value: unknown) => encodeResponse(value as ApiResponse)
          : method.responseSerialize,
      requestDeserialize: (bytes: Buffer) => {
        try {
          checkWireFormat(bytes, shape);
          return decode(bytes);
        } catch (e) {
          return new MalformedMessage(e instanceof Error ? e.message : String(e));
        }
      },
    };
  }
  return out as ServiceDefinition;
}
