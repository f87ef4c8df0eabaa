import { InvalidRequestError, type GatewayError } from '@gateway/shared';

/**
 * The fields the gateway reads; everything else in the body (roles, fields and block types it has never heard
 * of included) passes through untouched, for the upstream to judge (CONTRACT.md, forward compatibility).
 */
export interface MessagesBody extends Record<string, unknown> {
  model: string;
  max_tokens: number;
  messages: Array<{ role: string; content: unknown }>;
  stream?: boolean;
  system?: unknown;
}

export type CountTokensBody = Omit<MessagesBody, 'max_tokens' | 'stream'>;

const MAX_TOKENS_BOUND = 1_000_000_000;

/** Model ids are short; a longer string is refused here, before it can reach (and overflow) a policy call. */
export const MAX_MODEL_CHARS = 256;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkMessages(messages: unknown): GatewayError | undefined {
  if (!Array.isArray(messages)) return new InvalidRequestError('messages: Field required (an array of messages)');
  if (messages.length === 0) return new InvalidRequestError('messages: at least one message is required');
  for (let i = 0; i < messages.length; i += 1) {
    const m: unknown = messages[i];
    if (!isObject(m)) return new InvalidRequestError(`messages.${i}: must be an object`);
    // Any role is forwarded (current clients send `system` mid-conversation); the upstream judges it.
    if (typeof m['role'] !== 'string' || m['role'] === '') return new InvalidRequestError(`messages.${i}.role: must be a non-empty string`);
    const content = m['content'];
    if (typeof content === 'string') continue;
    if (!Array.isArray(content)) return new InvalidRequestError(`messages.${i}.content: must be a string or an array of content blocks`);
    for (let j = 0; j < content.length; j += 1) {
      const block: unknown = content[j];
      if (!isObject(block) || typeof block['type'] !== 'string') {
        return new InvalidRequestError(`messages.${i}.content.${j}.type: Field required`);
      }
    }
  }
  return undefined;
}

function checkModel(body: Record<string, unknown>): GatewayError | undefined {
  const model = body['model'];
  if (model === undefined) return new InvalidRequestError('model: Field required');
  if (typeof model !== 'string' || model === '') return new InvalidRequestError('model: must be a non-empty string');
  if (model.length > MAX_MODEL_CHARS) return new InvalidRequestError(`model: must be at most ${MAX_MODEL_CHARS} characters`);
  return undefined;
}

/** POST /v1/messages: model, max_tokens, messages and stream are checked; the rest is the upstream's business. */
export function validateMessagesBody(json: unknown): MessagesBody | GatewayError {
  if (!isObject(json)) return new InvalidRequestError('The request body must be a JSON object.');
  const modelError = checkModel(json);
  if (modelError !== undefined) return modelError;
  const maxTokens = json['max_tokens'];
  if (maxTokens === undefined) return new InvalidRequestError('max_tokens: Field required');
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) {
    return new InvalidRequestError('max_tokens: must be a positive integer');
  }
  // No model has anywhere near this many output tokens; the bound keeps the value exact on the way to the
  // policy service (a uint32 there), which then checks it against the model's own maximum.
  if (maxTokens > MAX_TOKENS_BOUND) return new InvalidRequestError(`max_tokens: ${maxTokens} is too large`);
  const messagesError = checkMessages(json['messages']);
  if (messagesError !== undefined) return messagesError;
  if (json['stream'] !== undefined && typeof json['stream'] !== 'boolean') {
    return new InvalidRequestError('stream: must be a boolean');
  }
  return json as MessagesBody;
}

/** POST /v1/messages/count_tokens: model and messages. */
export function validateCountTokensBody(json: unknown): CountTokensBody | GatewayError {
  if (!isObject(json)) return new InvalidRequestError('The request body must be a JSON object.');
  const modelError = checkModel(json);
  if (modelError !== undefined) return modelError;
  const messagesError = checkMessages(json['messages']);
  if (messagesError !== undefined) return messagesError;
  return json as CountTokensBody;
}

/** The model and numbers a decision needs, even from a body that failed validation (for the order of checks). */
export function decisionFields(json: unknown): { model: string; max_tokens: number; stream: boolean } {
  if (!isObject(json)) return { model: '', max_tokens: 0, stream: false };
  return {
    model: typeof json['model'] === 'string' && json['model'].length <= MAX_MODEL_CHARS ? json['model'] : '',
    max_tokens:
      typeof json['max_tokens'] === 'number' && Number.isInteger(json['max_tokens']) && json['max_tokens'] > 0 && json['max_tokens'] <= MAX_TOKENS_BOUND
        ? json['max_tokens']
        : 0,
    stream: json['stream'] === true,
  };
}
