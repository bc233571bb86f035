import type { Anthropic } from '@anthropic-ai/sdk';
import type { GoogleAuth } from 'google-auth-library';
import { anthropicSdk } from './provider-sdks.js';
import { credentialsError } from './google-credentials.js';
import type { ProviderErrorContext } from './provider-errors.js';
import { sdkLogger } from './sdk-logger.js';

/** A Google Cloud project and the region (or `global`) Claude runs in there. */
export interface VertexLocation {
  readonly project: string;
  readonly location: string;
}

/**
 * Claude on Vertex AI through Anthropic's own SDK for it. The credentials are looked up (and their
 * tokens cached) once per provider by google-auth-library, and handed to each request's client
 * already loaded: a missing credentials file is then a clear error of that request, never a
 * promise that rejects with nobody waiting.
 */
export class VertexClaudeClients {
  /** The endpoint requests go to, for error messages. */
  readonly baseUrl: string;
  private readonly auth: GoogleAuth;

  constructor(
    private readonly vertex: VertexLocation,
    baseUrl: string | undefined,
  ) {
    this.baseUrl = baseUrl ?? defaultBaseUrl(vertex.location);
    // The project is known: without it google-auth-library would ask Cloud Resource Manager.
    this.auth = new (anthropicSdk().GoogleAuth)({ scopes: 'https://www.googleapis.com/auth/cloud-platform', projectId: vertex.project });
  }

  /** A client for one request, whose HTTP calls go through `fetchImpl`; throws a ProviderError when no credentials can be loaded. */
  async client(fetchImpl: typeof fetch, context: ProviderErrorContext): Promise<{ readonly messages: Pick<Anthropic['messages'], 'create'> }> {
    let authClient: Awaited<ReturnType<GoogleAuth['getClient']>>;
    try {
      authClient = await this.auth.getClient();
    } catch (err) {
      throw credentialsError(err, context) ?? err;
    }
    return new (anthropicSdk().AnthropicVertex)({
      authClient,
      projectId: this.vertex.project,
      region: this.vertex.location,
      baseURL: this.baseUrl,
      // Smith retries itself, visibly.
      maxRetries: 0,
      logger: sdkLogger,
      fetch: fetchImpl,
    });
  }
}

// As the SDK's own default: the multi-region endpoints have their own hosts.
function defaultBaseUrl(location: string): string {
  if (location === 'global') return 'https://aiplatform.googleapis.com/v1';
  if (location === 'us' || location === 'eu') return `https://aiplatform.${location}.rep.googleapis.com/v1`;
  return `https://${location}-aiplatform.googleapis.com/v1`;
}
