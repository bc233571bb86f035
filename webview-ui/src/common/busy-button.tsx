import type { ReactNode } from 'react';
import { Codicon } from './codicon.js';

/** A secondary button with an icon that turns into a spinner while its action runs. */
export function BusyButton({
  icon,
  busy,
  label,
  onClick,
  disabled = false,
  expanded,
  children,
}: {
  icon: string;
  busy: boolean;
  /** The accessible name, when it says more than the visible text. */
  label?: string;
  onClick: () => void;
  disabled?: boolean;
  /** For a button that opens a list (aria-expanded). */
  expanded?: boolean;
  children: ReactNode;
}) {
  return (
    <button type="button" className="secondary-button" aria-label={label} aria-expanded={expanded} disabled={disabled} onClick={onClick}>
      <Codicon name={busy ? 'loading' : icon} spin={busy} /> {children}
    </button>
  );
}
