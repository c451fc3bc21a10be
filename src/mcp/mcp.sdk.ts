/**
 * What the MCP endpoint takes from the MCP SDK at request time, in one module that the routes
 * load at the first MCP request: the SDK (its protocol schemas are built when it loads) was
 * tens of milliseconds of every start, for an endpoint many servers never see called.
 */
export { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
export { isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResponse } from '@modelcontextprotocol/sdk/types.js'
export { createMcpServer } from './mcp.server.js'
