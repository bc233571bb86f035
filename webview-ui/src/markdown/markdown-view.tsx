import { memo, useMemo, type MouseEvent } from 'react';
import { renderMarkdown } from './render-markdown.js';

/** Model Markdown, rendered once per distinct text. */
export const MarkdownView = memo(function MarkdownView({ text, className }: { text: string; className?: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return (
    // The click handler only delegates for the links inside, which the keyboard activates with a click too.
    // biome-ignore lint/a11y/noStaticElementInteractions: see above
    // biome-ignore lint/a11y/useKeyWithClickEvents: see above
    <div
      className={className === undefined ? 'markdown' : `markdown ${className}`}
      onClick={keepNavigationOutside}
      // Sanitised by DOMPurify in renderMarkdown; this is the only raw HTML the panel renders.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised, see above
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
});

/** Anchors without a web link (stripped by the sanitiser) must not navigate the webview itself. */
function keepNavigationOutside(event: MouseEvent<HTMLDivElement>): void {
  const anchor = (event.target as Element).closest('a');
  if (anchor !== null && !anchor.hasAttribute('href')) event.preventDefault();
}
