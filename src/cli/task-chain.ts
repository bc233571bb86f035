// The chain logic lives in the engine, shared with the VS Code panel.
export { chainEvents, runTaskChain, type TaskChainResult } from '../core/task/task-chain.js';
