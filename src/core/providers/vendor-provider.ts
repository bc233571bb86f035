import type { ProviderErrorContext } from './provider-errors.js';
import { DEFAULT_IDLE_TIMEOUT_MS } from './stream-guard.js';
import type { ToolProtocol, VendorProviderOptions } from './types.js';

/** What every vendor provider takes from its options the same way: the model, the tool protocol, the idle timeout. */
export abstract class VendorProvider {
  readonly modelId: string;
  readonly toolProtocol: ToolProtocol;
  /** An attempt that receives nothing for this long is abandoned (StreamGuard); 0 turns it off. */
  protected readonly idleTimeoutMs: number;

  protected constructor(options: VendorProviderOptions) {
    this.modelId = options.model;
    this.toolProtocol = options.toolProtocol ?? 'xml';
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  }
}

/** What a vendor's errors are worded from: who answered, for which model, at which address, and where the key is set. */
export function vendorErrorContext(
  label: string,
  options: { readonly model: string; readonly keySource: string; readonly apiKey?: string | undefined },
  baseUrl: string,
): ProviderErrorContext {
  return { label, model: options.model, baseUrl, keySource: options.keySource, ...(options.apiKey ? { apiKey: options.apiKey } : {}) };
}
