// What every MCP tool is given: the services (the same ones the REST API calls) and the caller's account.
import type { FastifyBaseLogger } from 'fastify';
import type { Account } from '../domain/account.js';
import type { FrontEndServices } from '../services/front-ends.js';

/** The services the tools call: the same ones the REST API calls (services/front-ends.ts). */
export type McpDeps = FrontEndServices;

/** The HTTP request an MCP server answers: its id goes in tool errors, its logger records what failed inside a tool. */
export interface McpRequest {
  id: string;
  log: FastifyBaseLogger;
}

export interface ToolContext {
  deps: McpDeps;
  /** The account the request authenticated as; every tool reads and writes only its data. */
  account: Account;
  /** The request being answered (absent in-process): a tool's unexpected failure is logged with its id. */
  request?: McpRequest;
}
