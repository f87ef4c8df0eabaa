import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';

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
  const definition = protoLoader.loadSync(POLICY_PROTO_PATH, POLICY_PROTO_OPTIONS);
  const pkg = grpc.loadPackageDefinition(definition) as unknown as {
    gateway: { policy: { v1: { Policy: grpc.ServiceClientConstructor } } };
  };
  cached = pkg.gateway.policy.v1.Policy;
  return cached;
}

export function loadPolicyPackageDefinition(): protoLoader.PackageDefinition {
  return protoLoader.loadSync(POLICY_PROTO_PATH, POLICY_PROTO_OPTIONS);
}
