// The fake upstreams' public surface: a Messages-API upstream and AWS Bedrock, both scriptable and recording.
export {
  BehaviourScript,
  DEFAULT_CHUNK_SIZE,
  estimateInputTokens,
  estimateOutputTokens,
  lastUserText,
} from './fake-behaviour.js';
export type {
  BehaviourPlan,
  BehaviourSource,
  ContentBlockPlan,
  ErrorBeforePlan,
  ErrorMidStreamPlan,
  FakeRequest,
  FakeUsage,
  TextBlockPlan,
  ThinkingBlockPlan,
  ToolUseBlockPlan,
} from './fake-behaviour.js';
export type { RecordedRequest } from './fake-server.js';
export { startMessagesFake } from './messages-fake.js';
export type { MessagesFake, MessagesFakeOptions } from './messages-fake.js';
export { startBedrockFake, vendorModelName } from './bedrock-fake.js';
export { startBedrockControlFake } from './bedrock-control-fake.js';
export type { BedrockControlFake, ControlRecordedRequest } from './bedrock-control-fake.js';
export type { BedrockFake, BedrockFakeOptions, BedrockRecordedRequest } from './bedrock-fake.js';
export type { AwsCredentials } from './bedrock-sigv4.js';
export { bedrockErrorFor, streamExceptionType } from './bedrock-errors.js';
export type { BedrockError } from './bedrock-errors.js';
export { readMockUpstreamConfig, runMockUpstream } from './mock-upstream.js';
export type { MockUpstreamConfig } from './mock-upstream.js';
export { startVertexFake, startMetadataFake, VERTEX_ANTHROPIC_VERSION } from './vertex-fake.js';
export type { VertexFake, VertexFakeOptions, VertexRecordedRequest, MetadataFake } from './vertex-fake.js';
