// Smith's schemas use zod/mini: the same validation as classic zod, with functions in place of
// methods, so a bundle carries only the parts its schemas use (classic zod's methods keep all of
// it). Every module imports it from here, as `import * as z from '…/zod-config.js'` (a namespace
// import is what lets the bundler leave the rest out; `z.core` and `z.locales`, namespaces within
// it, would bring all of theirs), never from 'zod' or 'zod/mini' itself
// (scripts/check-layers.mjs): the settings below then hold before any schema parses, whichever
// entry point (extension, webview, CLI, a test) loads first.
import { en } from 'zod/locales';
import * as z from 'zod/mini';

// Classic zod sets its English messages itself; zod/mini leaves that to the application, and
// without it every issue would read just "Invalid input". Only English is bundled.
// jitless: zod's JIT probes `navigator` (an error in VS Code's extension host, which has retired
// that global) and compiles validators with `new Function`, which the webview's CSP forbids. The
// panel's messages are small enough that the plain validators lose nothing. zod/mini's objects
// never compile, but zod keeps these settings on globalThis, shared with the classic zod that a
// lazily loaded package (the MCP SDK) brings into the same process.
z.config({ ...en(), jitless: true });

export * from 'zod/mini';
