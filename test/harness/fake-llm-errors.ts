/** Error bodies worded as the real servers word them (OpenAI's unless said otherwise). */

export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export function errorBody(message: string, type: string, code: string | null, param: string | null = null): OpenAiErrorBody {
  return { error: { message, type, param, code } };
}

export type FaultStatus = 400 | 401 | 403 | 404 | 413 | 429 | 500 | 503;

export function statusError(status: FaultStatus, model: string, message?: string, retryAfter?: number): OpenAiErrorBody {
  switch (status) {
    case 400:
      return errorBody(message ?? 'Invalid request.', 'invalid_request_error', null);
    case 401:
      return errorBody(message ?? 'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.', 'invalid_request_error', 'invalid_api_key');
    case 403:
      return errorBody(message ?? 'You are not allowed to sample from this model', 'invalid_request_error', null);
    case 404:
      return errorBody(message ?? `The model \`${model}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found');
    case 413:
      return errorBody(message ?? 'Request too large.', 'invalid_request_error', 'request_too_large');
    case 429:
      return errorBody(message ?? `Rate limit reached for ${model} on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in ${retryAfter ?? 1}s.`, 'requests', 'rate_limit_exceeded');
    case 500:
      return errorBody(message ?? 'The server had an error while processing your request. Sorry about that!', 'server_error', null);
    case 503:
      return errorBody(message ?? 'The engine is currently overloaded, please try again later.', 'server_error', null);
  }
}

/** A prompt longer than the context window, as each server says it (status 400). */
export type ContextWording = 'openai' | 'llama.cpp' | 'ollama';

export function contextLengthError(wording: ContextWording, window: number, promptTokens: number, maxTokens: number): object {
  switch (wording) {
    case 'openai':
      return errorBody(
        `This model's maximum context length is ${window} tokens. However, you requested ${promptTokens + maxTokens} tokens (${promptTokens} in the messages, ${maxTokens} in the completion). Please reduce the length of the messages or completion.`,
        'invalid_request_error',
        'context_length_exceeded',
        'messages',
      );
    case 'llama.cpp':
      // llama.cpp's server: its own error type and the two counts.
      return { error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error', n_prompt_tokens: promptTokens, n_ctx: window } };
    case 'ollama':
      return errorBody('the input length exceeds the context length', 'invalid_request_error', null);
  }
}

/** OpenAI's refusals of chat-model parameters by a reasoning model (o-series, gpt-5). */
export function reasoningParamError(body: Record<string, unknown>): OpenAiErrorBody | undefined {
  if ('max_tokens' in body) {
    return errorBody("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", 'invalid_request_error', 'unsupported_parameter', 'max_tokens');
  }
  if ('temperature' in body && body.temperature !== 1) {
    return errorBody(`Unsupported value: 'temperature' does not support ${String(body.temperature)} with this model. Only the default (1) value is supported.`, 'invalid_request_error', 'unsupported_value', 'temperature');
  }
  return undefined;
}

/** vLLM-style refusal of structured output by a server without it. */
export function jsonSchemaError(): OpenAiErrorBody {
  return errorBody("response_format type 'json_schema' is not supported by this server.", 'invalid_request_error', null, 'response_format');
}

/** What a captive portal or a web site at the wrong URL answers, with status 200. */
export const HTML_PAGE = `<!DOCTYPE html>
<html><head><title>Hotel Wi-Fi — Sign in</title></head>
<body><h1>Welcome</h1><p>Please accept the terms to continue.</p><form action="/login"><button>Connect</button></form></body></html>`;
