// Must stay the first import: it configures zod before any schema is built.
import '../../src/shared/zod-config.js';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import { markOpeningOnce, OPENING_MARKS } from './opening-marks.js';
import { takeFirstSnapshot } from './state/embedded-snapshot.js';
import './styles/base.css';
import './styles/chat.css';
import './styles/cards.css';
import './styles/markdown.css';
import './styles/pages.css';
import './styles/mcp.css';

markOpeningOnce(OPENING_MARKS.scriptEvaluated);
const firstSnapshot = takeFirstSnapshot();
if (firstSnapshot) markOpeningOnce(OPENING_MARKS.firstSnapshot);
// The host's HTML provides #root; creating it keeps the bundle usable in any page (the dev harness).
const container = document.getElementById('root') ?? document.body.appendChild(document.createElement('div'));
container.id = 'root';
createRoot(container).render(<App firstSnapshot={firstSnapshot} />);
