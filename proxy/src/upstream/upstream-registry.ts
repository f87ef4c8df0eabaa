import { DEFAULT_UPSTREAM, type GatewayConfig, type Logger, type UpstreamPlatform } from '@gateway/shared';
import type { Responder } from '../exchange.js';
import { BedrockUpstream, DEFAULT_BEDROCK_URL } from './bedrock/bedrock-upstream.js';
import { MessagesUpstream } from './messages-upstream.js';
import { createUpstreamClient } from './upstream-client.js';
import { VertexUpstream } from './vertex/vertex-upstream.js';

/** One configured upstream: its platform and the responder that calls it. */
export interface ConfiguredUpstream {
  name: string;
  platform: UpstreamPlatform;
  /** undefined: named but not usable (a messages upstream without a URL): its routes are skipped for live keys */
  responder: Responder | undefined;
}

/**
 * The named upstreams routes call (UPSTREAMS_FILE, or the one named "default" from UPSTREAM_KIND, UPSTREAM_URL,
 * UPSTREAM_API_KEY), built once at start; they share one HTTP client (a keep-alive pool per origin).
 */
export class UpstreamRegistry {
  private readonly byName = new Map<string, ConfiguredUpstream>();

  constructor(config: GatewayConfig, log: Logger) {
    const { timeoutMs, connectTimeoutMs, firstEventTimeoutMs } = config.upstream;
    const client = createUpstreamClient(Math.min(connectTimeoutMs, timeoutMs));
    const calls = { timeoutMs, firstEventTimeoutMs, connectTimeoutMs, client };
    for (const [name, u] of Object.entries(config.upstreams)) {
      let responder: Responder | undefined;
      if (u.platform === 'bedrock') {
        // Bedrock has a well-known endpoint per region; `url` overrides it (a VPC endpoint, or a fake in tests).
        responder = new BedrockUpstream({ url: u.url ?? DEFAULT_BEDROCK_URL, bearerToken: u.apiKey, awsProfile: u.awsProfile, ...calls });
      } else if (u.platform === 'vertex') {
        responder = new VertexUpstream({ project: u.project, credentialsFile: u.credentialsFile, url: u.url, ...calls });
      } else if (u.url !== undefined) {
        responder = new MessagesUpstream({ url: u.url, apiKey: u.apiKey, ...calls });
      }
      this.byName.set(name, { name, platform: u.platform, responder });
      log.debug({ upstream: name, platform: u.platform }, 'upstream configured');
    }
  }

  get(name: string): ConfiguredUpstream | undefined {
    return this.byName.get(name === '' ? DEFAULT_UPSTREAM : name);
  }
}
