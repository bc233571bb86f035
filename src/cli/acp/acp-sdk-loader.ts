import type * as AcpSdk from './lazy/acp-sdk.js';

/** The Agent Client Protocol library, loaded on first use from its own bundle (see scripts/lazy-modules.mjs). */
export function acpSdk(): typeof AcpSdk {
  return require('./lazy/acp-sdk.js');
}
