// The server's prompts.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolContext } from '../context.js';
import { registerAnalyzeDelays } from './analyze-delays.js';
import { registerCheckDemurrage } from './check-demurrage.js';
import { registerTrackShipment } from './track-shipment.js';

export const PROMPTS: readonly ((server: McpServer, ctx: ToolContext) => void)[] = [
  registerTrackShipment,
  registerCheckDemurrage,
  registerAnalyzeDelays,
];
