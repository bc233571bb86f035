import { IconButton } from './icon-button.js';

/** The header of a page that replaces the chat (history, settings, MCP servers): a way back and the page's title. */
export function PageHeader({ title, onBack }: { title: string; onBack: () => void }) {
  return (
    <header className="page-header">
      <IconButton icon="arrow-left" label="Back to chat" onClick={onBack} />
      <h2>{title}</h2>
    </header>
  );
}
