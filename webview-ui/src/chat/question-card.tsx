import { useState } from 'react';
import { Codicon } from '../common/codicon.js';
import { useActions } from '../common/actions-context.js';
import { MarkdownView } from '../markdown/markdown-view.js';
import { useTaskRef } from '../common/task-context.js';

/** The model's follow-up question; its options answer it in one click while the question is pending. */
export function QuestionCard({ question, options, pending }: { question: string; options: readonly string[]; pending: boolean }) {
  const { send } = useActions();
  const taskRef = useTaskRef();
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const answerable = pending && chosen === undefined;
  return (
    <div className={`card question-card${pending ? ' pending' : ''}`}>
      <div className="card-title">
        <Codicon name="question" />
        <span>Question</span>
      </div>
      <MarkdownView text={question} />
      {options.length > 0 && (
        <div className="question-options" role="group" aria-label="Suggested answers">
          {options.map((option) => (
            <button
              key={option}
              type="button"
              className={option === chosen ? 'option-button chosen' : 'option-button'}
              disabled={!answerable}
              onClick={() => {
                setChosen(option);
                send({ type: 'answer', text: option, ...taskRef });
              }}
            >
              {option}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
