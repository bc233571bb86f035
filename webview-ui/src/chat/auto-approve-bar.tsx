import { useState } from 'react';
import type { AutoApproveView } from '../../../src/shared/protocol.js';
import { useActions } from '../common/actions-context.js';
import { Codicon } from '../common/codicon.js';
import { formatCost } from '../common/format.js';
import { useOptimistic } from '../common/use-optimistic.js';

type Toggle = 'readFiles' | 'editFiles' | 'safeCommands' | 'allCommands' | 'mcpTools' | 'browser';

const TOGGLES: readonly { readonly key: Toggle; readonly label: string; readonly hint: string; readonly command?: true }[] = [
  { key: 'readFiles', label: 'Read', hint: 'Read files and list folders in the workspace' },
  { key: 'editFiles', label: 'Edit', hint: 'Write and edit files in the workspace' },
  { key: 'safeCommands', label: 'Safe commands', hint: 'Commands the model marks as safe (no side effects)', command: true },
  { key: 'allCommands', label: 'All commands', hint: 'Every command, whatever the model says about it', command: true },
  { key: 'mcpTools', label: 'MCP', hint: 'Tools of your MCP servers' },
  { key: 'browser', label: 'Web', hint: 'Open pages in the browser, fetch pages from a new host, and search the web' },
];

/** What a command approved without asking can reach, with the sandbox on or off. */
const SANDBOXED = ' (sandboxed: a command can change the workspace, nothing else)';
const UNCONFINED = ' (runs as you, with your files and network; smith.sandbox confines commands)';

/**
 * What Smith may do without asking, above the Task box: a one-line summary that opens into the
 * toggles and the limits per task. Every change is written to the user's settings (the same
 * `smith.autoApprove.*`, `smith.maxIterations` and `smith.maxCost`) and applies to the next tool call.
 */
export function AutoApproveBar({ settings }: { settings: AutoApproveView }) {
  const { send } = useActions();
  const [open, setOpen] = useState(false);
  const on = TOGGLES.filter((toggle) => settings[toggle.key]).map((toggle) => toggle.label);
  const summary = on.length === 0 ? 'nothing' : on.join(', ');
  return (
    <section className="auto-approve" aria-label="Auto-approve">
      <button type="button" className="link-button auto-approve-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        <Codicon name={open ? 'chevron-down' : 'chevron-right'} /> Auto-approve: {summary}
        {settings.sandboxed && (
          <span
            className="auto-approve-sandboxed"
            title="Commands run in the command sandbox: the workspace writable, the rest read-only, no network but the allowed hosts"
          >
            {' '}
            <Codicon name="shield" /> sandboxed
          </span>
        )}
      </button>
      {open && (
        <div className="auto-approve-body">
          <div className="auto-approve-toggles">
            {TOGGLES.map((toggle) => (
              <ToggleBox
                key={toggle.key}
                toggle={toggle.command ? { ...toggle, hint: toggle.hint + (settings.sandboxed ? SANDBOXED : UNCONFINED) } : toggle}
                checked={settings[toggle.key] === true}
              />
            ))}
          </div>
          <div className="auto-approve-limits">
            <LimitField
              label="Max requests"
              hint="Model requests per task before Smith stops and asks"
              value={String(settings.maxRequests)}
              onSave={(text) => {
                const value = Number(text);
                if (Number.isInteger(value) && value >= 1) send({ type: 'setAutoApprove', change: { maxRequests: value } });
              }}
            />
            <LimitField
              label="Max cost ($)"
              hint={`Cost per task before Smith stops and asks; empty for no limit${settings.maxCost !== undefined ? ` (now ${formatCost(settings.maxCost)})` : ''}`}
              value={settings.maxCost === undefined ? '' : String(settings.maxCost)}
              onSave={(text) => {
                const value = text.trim() === '' ? 0 : Number(text);
                if (Number.isFinite(value) && value >= 0) send({ type: 'setAutoApprove', change: { maxCost: value } });
              }}
            />
          </div>
        </div>
      )}
    </section>
  );
}

/** One toggle, shown changed at once; the settings confirm it, or a failure puts it back. */
function ToggleBox({ toggle, checked }: { toggle: (typeof TOGGLES)[number]; checked: boolean }) {
  const { request } = useActions();
  const [shown, choose] = useOptimistic(checked);
  return (
    <label title={toggle.hint}>
      <input
        type="checkbox"
        checked={shown}
        onChange={(event) => choose(event.target.checked, () => request({ type: 'setAutoApprove', change: { [toggle.key]: event.target.checked } }))}
      />{' '}
      {toggle.label}
    </label>
  );
}

/** A number the user types, saved when it loses the focus or on Enter (and only when it changed). */
function LimitField({ label, hint, value, onSave }: { label: string; hint: string; value: string; onSave: (text: string) => void }) {
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const save = () => {
    if (draft !== undefined && draft !== value) onSave(draft);
    setDraft(undefined);
  };
  return (
    <label title={hint}>
      {label}{' '}
      <input
        type="number"
        min={0}
        className="limit-input"
        value={draft ?? value}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={save}
        onKeyDown={(event) => {
          if (event.key === 'Enter') save();
        }}
      />
    </label>
  );
}
