// Loaded when `smith acp` starts (its own bundle, dist/lazy/: see scripts/lazy-modules.mjs), so
// every other command starts without compiling the Agent Client Protocol library.
export { agent, ndJsonStream, PROTOCOL_VERSION, RequestError } from '@agentclientprotocol/sdk';
