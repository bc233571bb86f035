import { useState } from 'react';
import type { McpElicitationView } from '../../../src/shared/protocol.js';
import { checkElicitationContent, readElicitationInput, type ElicitationField, type ElicitationValue } from '../../../src/shared/elicitation-form.js';
import { Codicon } from '../common/codicon.js';
import { useActions } from '../common/actions-context.js';

/** Every server form waiting for an answer, oldest first. */
export function ElicitationForms({ forms }: { forms: readonly McpElicitationView[] | undefined }) {
  if (forms === undefined || forms.length === 0) return null;
  return (
    <div className="elicitation-forms">
      {forms.map((form) => (
        <ElicitationForm key={form.id} form={form} />
      ))}
    </div>
  );
}

type Draft = Record<string, string | boolean | readonly string[]>;

/**
 * One server's form: a control per field of its schema, checked here with the same rules the host
 * applies (the host checks again and refuses a mismatch), then Submit, Decline or Cancel.
 */
function ElicitationForm({ form }: { form: McpElicitationView }) {
  const { request, reportError } = useActions();
  const [draft, setDraft] = useState<Draft>(() => initialDraft(form.fields));
  const [errors, setErrors] = useState<Readonly<Record<string, string>>>({});
  const [busy, setBusy] = useState(false);
  const answer = (action: 'accept' | 'decline' | 'cancel', content?: Record<string, ElicitationValue>) => {
    setBusy(true);
    request({ type: 'mcpAnswerElicitation', elicitationId: form.id, action, ...(content ? { content } : {}) }).then(
      () => setBusy(false),
      (error: unknown) => {
        setBusy(false);
        reportError(error);
      },
    );
  };
  const submit = () => {
    const read = readDraft(form.fields, draft);
    if ('errors' in read) return setErrors(read.errors);
    const check = checkElicitationContent(form.fields, read.content);
    if (!check.ok) return setErrors(check.errors);
    setErrors({});
    answer('accept', { ...check.content });
  };
  const titleId = `elicitation-${form.id}-title`;
  return (
    // noValidate: the browser's own checks (a number's step, min, max) would block the submit with a
    // tooltip outside the page; the form's checks show their message at the field instead.
    <form
      className="card elicitation-form"
      aria-labelledby={titleId}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="card-title" id={titleId}>
        <Codicon name="comment-discussion" />
        <span>{form.server} asks for input</span>
      </div>
      <p className="elicitation-message">{form.message}</p>
      {form.fields.map((field) => (
        <FieldControl
          key={field.name}
          formId={form.id}
          field={field}
          value={draft[field.name]}
          error={errors[field.name]}
          onChange={(value) => setDraft((current) => ({ ...current, [field.name]: value }))}
        />
      ))}
      {errors[''] !== undefined && <div className="field-error">{errors['']}</div>}
      <div className="button-row">
        <button type="submit" className="primary-button" disabled={busy}>
          Submit
        </button>
        <button type="button" className="secondary-button" disabled={busy} onClick={() => answer('decline')}>
          Decline
        </button>
        <button type="button" className="secondary-button" disabled={busy} onClick={() => answer('cancel')}>
          Cancel
        </button>
      </div>
      <div className="muted small">
        The server gets only what you submit. Unanswered, the form is cancelled at {new Date(form.expiresAt).toLocaleTimeString()}.
      </div>
    </form>
  );
}

function FieldControl({
  formId,
  field,
  value,
  error,
  onChange,
}: {
  formId: string;
  field: ElicitationField;
  value: string | boolean | readonly string[] | undefined;
  error: string | undefined;
  onChange: (value: string | boolean | readonly string[]) => void;
}) {
  const id = `elicitation-${formId}-${field.name}`;
  const label = (
    <label htmlFor={id}>
      {field.label}
      {field.required ? ' *' : ''}
    </label>
  );
  const hint = field.description !== undefined ? <div className="muted small">{field.description}</div> : null;
  const errorId = `${id}-error`;
  const problem =
    error !== undefined ? (
      <div className="field-error" id={errorId} role="alert">
        {error}
      </div>
    ) : null;
  // The error is the control's description, so a screen reader says it with the field.
  const invalid = { 'aria-invalid': error !== undefined, ...(error !== undefined ? { 'aria-describedby': errorId } : {}) };
  switch (field.kind) {
    case 'boolean':
      return (
        <div className="elicitation-field checkbox-field">
          <input id={id} type="checkbox" checked={value === true} {...invalid} onChange={(event) => onChange(event.target.checked)} />
          {label}
          {hint}
          {problem}
        </div>
      );
    case 'choice':
      return (
        <div className="elicitation-field">
          {label}
          <select id={id} value={typeof value === 'string' ? value : ''} {...invalid} onChange={(event) => onChange(event.target.value)}>
            <option value="">{field.required ? 'Choose…' : '(none)'}</option>
            {field.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
          {hint}
          {problem}
        </div>
      );
    case 'multi': {
      const chosen = Array.isArray(value) ? value : [];
      return (
        <fieldset className="elicitation-field" id={id}>
          <legend>
            {field.label}
            {field.required ? ' *' : ''}
          </legend>
          {field.options.map((option) => (
            <label key={option.value} className="checkbox-field">
              <input
                type="checkbox"
                checked={chosen.includes(option.value)}
                onChange={(event) => onChange(event.target.checked ? [...chosen, option.value] : chosen.filter((v) => v !== option.value))}
              />
              {option.label}
            </label>
          ))}
          {hint}
          {problem}
        </fieldset>
      );
    }
    default:
      return (
        <div className="elicitation-field">
          {label}
          <input
            id={id}
            type={inputType(field)}
            value={typeof value === 'string' ? value : ''}
            {...invalid}
            {...(field.kind === 'number' ? { step: field.integer ? 1 : 'any', min: field.minimum, max: field.maximum } : {})}
            onChange={(event) => onChange(event.target.value)}
          />
          {hint}
          {problem}
        </div>
      );
  }
}

function inputType(field: ElicitationField): string {
  if (field.kind === 'number') return 'number';
  if (field.kind !== 'text') return 'text';
  switch (field.format) {
    case 'email':
      return 'email';
    case 'uri':
      return 'url';
    case 'date':
      return 'date';
    default:
      return 'text';
  }
}

function initialDraft(fields: readonly ElicitationField[]): Draft {
  const draft: Draft = {};
  for (const field of fields) {
    // A checkbox always shows a state, and what it shows is what is sent.
    if (field.kind === 'boolean') draft[field.name] = field.default ?? false;
    if (field.default === undefined) continue;
    draft[field.name] = typeof field.default === 'number' ? String(field.default) : field.default;
  }
  return draft;
}

/** The draft as an answer: text boxes read per kind (numbers parsed), empty ones left out. */
function readDraft(fields: readonly ElicitationField[], draft: Draft): { content: Record<string, ElicitationValue> } | { errors: Record<string, string> } {
  const content: Record<string, ElicitationValue> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const value = draft[field.name];
    if (value === undefined) continue;
    if (typeof value === 'boolean' || Array.isArray(value)) {
      content[field.name] = value as boolean | readonly string[];
      continue;
    }
    const read = readElicitationInput(field, value as string);
    if ('error' in read) errors[field.name] = read.error;
    else if (read.value !== undefined) content[field.name] = read.value;
  }
  return Object.keys(errors).length > 0 ? { errors } : { content };
}
