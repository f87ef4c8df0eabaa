import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { encodeSessionRequest, encodeSessionResponse } from './session-encoder.js';
import { decodeSessionResponse } from './session-decoder.js';

/** Where proto/policy.proto lives in the repository (shared/dist/src → ../../../proto). */
export const POLICY_PROTO_PATH = resolve(dirname(fileURLToPath(import.meta.url)), '../../../proto/policy.proto');

export const POLICY_PROTO_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: true,
  arrays: true,
  oneofs: true,
};

export const POLICY_SERVICE_NAME = 'gateway.policy.v1.Policy';

let cached: grpc.ServiceClientConstructor | undefined;

/** The Policy service definition, loaded from the .proto at run time (the .proto is the source of truth). */
export function policyServiceConstructor(): grpc.ServiceClientConstructor {
  if (cached !== undefined) return cached;
  const pkg = grpc.loadPackageDefinition(loadPolicyPackageDefinition()) as unknown as {
    gateway: { policy: { v1: { Policy: grpc.ServiceClientConstructor } } };
  };
  cached = pkg.gateway.policy.v1.Policy;
  return cached;
}

/**
 * The package definition both processes serve and call with. The Session stream's messages, which carry every
 * decision and usage report, are written by their own encoder instead of proto-loader's object conversion, and
 * the proxy reads SessionResponse with its own decoder (same wire format, same objects; docs/decisions.md);
 * everything else, the policy service's reading of SessionRequest included, stays proto-loader's.
 */
export function loadPolicyPackageDefinition(): protoLoader.PackageDefinition {
  const definition = protoLoader.loadSync(POLICY_PROTO_PATH, POLICY_PROTO_OPTIONS);
  const session = (definition[POLICY_SERVICE_NAME] as grpc.ServiceDefinition)['Session'];
  if (session === undefined) throw new Error(`${POLICY_PROTO_PATH} has no Session method`);
  session.requestSerialize = encodeSessionRequest as (value: unknown) => Buffer;
  session.responseSerialize = encodeSessionResponse as (value: unknown) => Buffer;
  session.responseDeserialize = decodeSessionResponse;
  return definition;
}
