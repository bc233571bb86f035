import { z } from 'zod';

// Imported first by the extension: zod's JIT probes `navigator` (an error in VS Code's extension
// host, which has retired that global) and compiles validators with `new Function`. The panel's
// messages are few and small, so the plain validators lose nothing.
z.config({ jitless: true });
