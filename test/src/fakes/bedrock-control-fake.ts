import { randomUUID } from 'node:crypto';
import { bedrockError, type BedrockError } from './bedrock-errors.js';
import { verifySigV4, type AwsCredentials } from './bedrock-sigv4.js';
import { FakeServer, RequestLog, writeJson, type Exchange, type RecordedRequest } from './fake-server.js';

/**
 * The inference platform's control plane, as far as route verification uses it: GetInferenceProfile
 * (`GET /inference-profiles/{id}`: the profile's model ARNs, one per destination region) and GetFoundationModel
 * (`GET /foundation-models/{id}`: the model's ARN in the region asked), each SigV4-checked like the runtime fake
 * (service `bedrock`, the credential scope's region = the `{region}` path segment). What a profile routes to is
 * scripted per profile id; `down` answers 503 to everything, `deny` answers AccessDeniedException.
 */
export interface BedrockControlFake {
  readonly url: string;
  readonly requests: ControlRecordedRequest[];
  /** Destination regions of a profile id (GetInferenceProfile), replacing what it had. */
  setProfile(profileId: string, regions: string[]): void;
  /** 'up' (default), 'down' (503 ServiceUnavailableException), 'deny' (403 AccessDeniedException). */
  setMode(mode: 'up' | 'down' | 'deny'): void;
  waitFor(predicate: (requests: readonly ControlRecordedRequest[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface ControlRecordedRequest extends RecordedRequest {
  operation: 'GetInferenceProfile' | 'GetFoundationModel' | null;
  resourceId: string | null;
  signatureValid: boolean;
  /** The body of a 200 answer, as sent (its SHA-256 is the evidence a verified route's attestation names). */
  answer: string | null;
}

const ROUTE = /^\/([^/]+)\/(inference-profiles|foundation-models)\/([^/]+)$/;
const ACCOUNT = '123456789012';

export async function startBedrockControlFake(opts: { credentials: AwsCredentials; profiles?: Record<string, string[]> }): Promise<BedrockControlFake> {
  const profiles = new Map<string, string[]>(Object.entries(opts.profiles ?? {}));
  let mode: 'up' | 'down' | 'deny' = 'up';
  const log = new RequestLog<ControlRecordedRequest>(Number.POSITIVE_INFINITY, undefined);
  const server = await FakeServer.start(
    async (ex) => {
      const { req } = ex;
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const path = q < 0 ? url : url.slice(0, q);
      const route = ROUTE.exec(path);
      const region = route?.[1] ?? '';
      const record: ControlRecordedRequest = {
        method: req.method ?? '', path, url, region: route === null ? null : region, headers: req.headers, rawBody: '', json: null,
        receivedAt: Date.now(), status: null, completed: false, clientAborted: false,
        operation: route === null ? null : route[2] === 'inference-profiles' ? 'GetInferenceProfile' : 'GetFoundationModel',
        resourceId: route === null ? null : decodeURIComponent(route[3] ?? ''),
        signatureValid: false,
        answer: null,
      };
      ex.track(record);
      log.add(record);
      if (route === null || req.method !== 'GET') return sendError(ex, { status: 404, name: 'UnknownOperationException', message: `${req.method} ${path}` });
      const auth = await verifySigV4(
        { method: 'GET', rawPath: path, rawQuery: q < 0 ? '' : url.slice(q + 1), headers: req.headersDistinct as Record<string, string[]>, body: Buffer.alloc(0), pathRegion: region },
        opts.credentials,
        new Date(),
      );
      record.signatureValid = auth.ok;
      log.changed();
      if (!auth.ok) return sendError(ex, bedrockError(auth.errorType, auth.message));
      if (mode === 'down') return sendError(ex, { status: 503, name: 'ServiceUnavailableException', message: 'Service unavailable' });
      if (mode === 'deny') return sendError(ex, bedrockError('AccessDeniedException', 'User is not authorized to perform: bedrock:GetInferenceProfile'));
      const id = record.resourceId ?? '';
      const modelId = id.replace(/^[a-z]+\./, '');
      const answer = (body: unknown): void => {
        record.answer = JSON.stringify(body);
        writeJson(ex.res, 200, body);
      };
      if (record.operation === 'GetFoundationModel') {
        return answer({
          modelDetails: { modelArn: `arn:aws:bedrock:${region}::foundation-model/${id}`, modelId: id, providerName: 'Anthropic', modelLifecycle: { status: 'ACTIVE' } },
        });
      }
      const regions = profiles.get(id);
      if (regions === undefined) return sendError(ex, bedrockError('ResourceNotFoundException', `Inference profile ${id} not found`));
      return answer({
        inferenceProfileName: `EU ${modelId}`,
        inferenceProfileArn: `arn:aws:bedrock:${region}:${ACCOUNT}:inference-profile/${id}`,
        inferenceProfileId: id,
        models: regions.map((r) => ({ modelArn: `arn:aws:bedrock:${r}::foundation-model/${modelId}` })),
        status: 'ACTIVE',
        type: 'SYSTEM_DEFINED',
      });
    },
    0,
    '127.0.0.1',
    () => log.changed(),
  );
  return {
    url: server.url,
    requests: log.requests,
    setProfile: (id, regions) => void profiles.set(id, regions),
    setMode: (m) => {
      mode = m;
    },
    waitFor: (predicate, timeoutMs) => log.waitFor(predicate, timeoutMs),
    close: () => server.close(),
  };
}

function sendError(ex: Exchange, err: BedrockError): void {
  writeJson(ex.res, err.status, { message: err.message }, { 'x-amzn-errortype': err.name, 'x-amzn-requestid': randomUUID() });
}
