// Its own module so approval-policy.ts and skill.ts can name a group without importing tool-spec.ts,
// which depends on both of them.

/** Which auto-approve switch governs a tool (and which skill group it belongs to). */
export type ToolGroup = 'read' | 'edit' | 'command' | 'mcp' | 'browser' | 'interaction';
