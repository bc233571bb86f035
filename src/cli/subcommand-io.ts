// What every `smith <subcommand>` is given, so each can be run from a test with its own streams.
import type { Writable } from 'node:stream';
import { cliRedactor } from './cli-secrets.js';
import { createStyle, type Style } from './style.js';
import type { SecretRedactor } from '../core/secrets/secret-redactor.js';

/** What every subcommand is given: the streams, the environment, and the style for stderr. */
export interface SubcommandIo {
  readonly out: NodeJS.WriteStream | Writable;
  readonly err: NodeJS.WriteStream | Writable;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly style: Style;
  readonly redactor: SecretRedactor | undefined;
}

/** The process's own streams and environment, with colour only on a terminal that allows it. */
export function subcommandIo(): SubcommandIo {
  const redactor = cliRedactor(process.env);
  const style = createStyle(Boolean(process.stderr.isTTY) && !process.env.NO_COLOR, redactor);
  return { out: process.stdout, err: process.stderr, env: process.env, cwd: process.cwd(), style, redactor };
}
