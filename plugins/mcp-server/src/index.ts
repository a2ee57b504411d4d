/**
 * `@mira/plugin-mcp-server`: `mira mcp`, a profile's read-only tools served to other agents over the
 * Model Context Protocol on stdio. The command is declared in this package's package.json (see
 * `CliCommandDeclaration` in `@mira/core`); this entry point exports the pieces for tests and embedders.
 */
export { fromMcpArguments, mcpInputSchema, mcpTools, serveMcp } from './server.js';
