// Loaded when the first OpenAI-style provider is made (its own bundle, dist/lazy/: see scripts/lazy-modules.mjs).
export { APIConnectionError, APIError, APIUserAbortError, AzureOpenAI, OpenAI } from 'openai';
