// Stylesheets imported for their side effect; esbuild bundles them into webview.css.
declare module '*.css';
