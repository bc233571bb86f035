// Loaded when the first Claude provider is made (its own bundle, dist/lazy/: see
// scripts/lazy-modules.mjs). One bundle for the three SDKs, which share @anthropic-ai/sdk's classes.
export { Anthropic, APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
export { AnthropicBedrock } from '@anthropic-ai/bedrock-sdk';
export { AnthropicVertex } from '@anthropic-ai/vertex-sdk';
export { GoogleAuth } from 'google-auth-library';
