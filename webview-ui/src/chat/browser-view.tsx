import { useState } from 'react';
import { useActions } from '../common/actions-context.js';
import { Codicon } from '../common/codicon.js';
import type { UiToolMessage } from '../../../src/shared/ui-messages.js';
import type { ConsoleLevel } from '../../../src/shared/tool-details.js';

/** The colour of a console line by its level; the others are plain. */
const CONSOLE_CLASS: Readonly<Partial<Record<ConsoleLevel, string>>> = { error: 'console-error', warn: 'console-warning' };

/**
 * A browser_action card's page: the newest screenshot of the chat (click to see it at full size)
 * and the console messages the action brought, errors in the error colour.
 */
export function BrowserView({ message, taskId }: { message: UiToolMessage; taskId?: string }) {
  const [full, setFull] = useState(false);
  const { send } = useActions();
  const lines = message.details?.browser?.console ?? [];
  return (
    <>
      {message.screenshot !== undefined && (
        <button
          type="button"
          className={full ? 'browser-shot full' : 'browser-shot'}
          aria-expanded={full}
          title={full ? 'Show smaller' : 'Show at full size'}
          onClick={() => setFull(!full)}
        >
          <img src={message.screenshot} alt={`The page after ${message.params.action ?? 'the action'}`} />
        </button>
      )}
      {message.screenshot !== undefined && taskId !== undefined && (
        <button
          type="button"
          className="link-button browser-open"
          title="Open the screenshot in an editor tab"
          onClick={() => send({ type: 'openScreenshot', taskId, callId: message.callId })}
        >
          <Codicon name="go-to-file" /> Open screenshot
        </button>
      )}
      {lines.length > 0 && (
        <ul className="browser-console" aria-label="Console messages">
          {lines.map((line, index) => (
            // Lines repeat (the same log twice), so the index is part of the key.
            // biome-ignore lint/suspicious/noArrayIndexKey: the list only grows with the message it belongs to
            <li key={index} className={CONSOLE_CLASS[line.level]}>
              {line.text}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
