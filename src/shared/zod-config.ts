import { z } from 'zod';

// Imported first by the extension and by the webview: zod's JIT probes `navigator` (an error in
// VS Code's extension host, which has retired that global) and compiles validators with
// `new Function`, which the webview's CSP forbids. The panel's messages are small enough that the
// plain validators lose nothing.
z.config({ jitless: true });
