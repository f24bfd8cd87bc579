// The server's resources.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolContext } from '../context.js';
import { registerContainerResource } from './container.js';
import { registerMilestoneGlossary } from './milestone-glossary.js';

export const RESOURCES: readonly ((server: McpServer, ctx: ToolContext) => void)[] = [registerContainerResource, registerMilestoneGlossary];
