import { CoreErrorCodes, defineErrors } from '@mira/core';

/** The MCP tools plugin's start-up refusals. */
export const McpToolsErrors = defineErrors('@mira/plugin-mcp-tools', {
  SCHEMA_NOT_STRICT: {
    code: 'MIRA_ERR_MCP_SCHEMA_NOT_STRICT',
    message: "an allowed MCP tool's input schema cannot be made a strict function schema",
    template: 'mcp {server}: tool {tool}: {why}; remove it from [[mcp_tools.servers]] tools',
    fix: 'remove the tool from [[mcp_tools.servers]] tools, or ask its author for a closed schema',
  },
  TOOL_NAME_CLASH: {
    code: 'MIRA_ERR_MCP_TOOL_NAME_CLASH',
    message: 'two allowed MCP tools map to the same Mira tool name',
    template: 'mcp {server}: tools {first} and {second} are both {name}; allow only one',
    fix: 'allow only one of them',
  },
  CONFIG_INVALID: {
    code: CoreErrorCodes.CONFIG_INVALID,
    borrowed: true,
    situations: {
      serverNamedTwice: {
        message: '[mcp_tools] two MCP servers are named {name}; give each [[mcp_tools.servers]] its own name',
        fix: 'rename one of the two [[mcp_tools.servers]] entries (name = "…")',
      },
    },
  },
  CONSOLE_USAGE: {
    code: CoreErrorCodes.CONSOLE_USAGE,
    borrowed: true,
    situations: {
      noServer: {
        message: 'no MCP server named {name}; servers: {servers}',
        fix: 'give one of the server names the message lists ([[mcp_tools.servers]] name)',
      },
    },
  },
});
