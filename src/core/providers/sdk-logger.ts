import { Console } from 'node:console';

/**
 * Logger handed to the vendor SDKs: their default is globalThis.console, whose info/debug lines go
 * to stdout and would corrupt the CLI's JSON output when a user sets OPENAI_LOG/ANTHROPIC_LOG.
 */
export const sdkLogger = new Console({ stdout: process.stderr, stderr: process.stderr });
