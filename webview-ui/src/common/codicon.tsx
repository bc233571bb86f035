/** A codicon glyph; decorative, so hidden from screen readers (the control carries the name). */
export function Codicon({ name, spin = false }: { name: string; spin?: boolean }) {
  return <span className={`codicon codicon-${name}${spin ? ' codicon-modifier-spin' : ''}`} aria-hidden="true" />;
}
