import { Codicon } from './codicon.js';

/** A toolbar button showing only a codicon; `label` is its accessible name and tooltip. */
export function IconButton({
  icon,
  label,
  onClick,
  disabled = false,
  pressed,
}: {
  icon: string;
  label: string;
  onClick: () => void;
  disabled?: boolean;
  pressed?: boolean;
}) {
  return (
    <button type="button" className="icon-button" aria-label={label} title={label} onClick={onClick} disabled={disabled} aria-pressed={pressed}>
      <Codicon name={icon} />
    </button>
  );
}
