import { type handleUnaryCall, Metadata, status } from "@grpc/grpc-js";
import type { GrpcContext, GrpcMethod } from "./grpc-context.ts";
import { grpcFailure, serviceError } from "./grpc-errors.ts";
import { MalformedMessage } from "./service-codecs.ts";

/**
 * Adapts a method to grpc-js (api-endpoint.ts's counterpart): a malformed request is refused as grpc-go
 * does, failures become statuses, and each call is one debug line.
 */
export function unary<Req, Res>(
  ctx: GrpcContext,
  method: string,
  handler: GrpcMethod<Req, Res>,
): handleUnaryCall<Req, Res> {
  const { logger } = ctx;
  return (call, callback) => {
    const started = performance.now();
    const done = (code: number) => {
      if (logger.isLevelEnabled("debug")) {
        logger.debug(
          {
            method,
            code,
            ms: Math.round((performance.now() - started) * 1000) / 1000,
            peer: call.getPeer(),
          },
          "grpc call",
        );
      }
    };
    const request = call.request as unknown;
    if (request instanceof MalformedMessage) {
      // grpc-go's status for a request that does not decode.
      done(status.INTERNAL);
      callback({
        code: status.INTERNAL,
        details: `grpc: error unmarshalling request: ${request.reason}`,
        metadata: new Metadata(),
      });
      return;
    }
    handler(ctx, call).then(
      (response) => {
        done(0);
        callback(null, response);
      },
      (error: unknown) => {
        const failure = grpcFailure(error);
        if (failure.unexpected !== undefined) {
          logger.error({ err: failure.unexpected, method }, "grpc call failed");
        }
        done(failure.code);
        callback(serviceError(failure));
      },
    );
  };
}
