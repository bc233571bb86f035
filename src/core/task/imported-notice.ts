import type { UiMessage } from '../../shared/ui-messages.js';
import { IMPORT_SOURCE_NAMES, type ImportedFrom } from '../log/conversation-events.js';

/** The chat's note on an imported task: where it came from, and each thing that did not come along. */
export function importedNotice(imported: ImportedFrom, id: string, ts: number): UiMessage {
  const from = `Imported from ${IMPORT_SOURCE_NAMES[imported.source] ?? imported.source} (${imported.path}).`;
  const left = imported.notCarried;
  return {
    kind: 'notice',
    id,
    text:
      left.length === 0
        ? `${from} Everything in it was carried over.`
        : `${from} Not carried over: ${left.length === 1 ? '1 thing' : `${left.length} things`} (see details).`,
    ...(left.length > 0 ? { detail: left.map((line) => `- ${line}`).join('\n') } : {}),
    ts,
  };
}
