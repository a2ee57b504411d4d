/**
 * `@mira/plugin-mcp-server`: `mira mcp`, a profile's read-only tools served to other agents over the
 * Model Context Protocol on stdio. The command is declared in this package's package.json (see
 * `CliCommandDeclaration` in `@mira/core`); this entry point exports the pieces for tests and embedders.
 */
export { EarlyAnswers, SDK_PROTOCOL_VERSIONS, type EarlyAnswersOptions } from './early-answers.js';
export { serveMcp, type McpSessionEnd, type McpStdio } from './server.js';
export { fromMcpArguments, mcpInputSchema, mcpTools, serverIdentity, toolListResult } from './tools.js';
