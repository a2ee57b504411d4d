import { defineErrors } from '../error-catalogue.js';

/** The errors of cognition, raised by the episode engine and by providers. */
export const CognitionErrors = defineErrors('@mira/core', {
  PROVIDER: {
    code: 'MIRA_ERR_COGNITION_PROVIDER',
    message: 'the model server answered with an error status',
    template: 'the model server at {server} answered with an error ({status}): {answer}',
    fix: "check the model name ([openai] model) against the server's models; the server's answer is in the message",
  },
  UNREACHABLE: {
    code: 'MIRA_ERR_COGNITION_UNREACHABLE',
    message: 'the model server could not be reached',
    template:
      'cannot reach the model server at {server}; check that it runs and that OPENAI_BASE_URL or [openai] base_url is right',
    fix: 'start the server or fix OPENAI_BASE_URL / [openai] base_url',
  },
  TIMEOUT: {
    code: 'MIRA_ERR_COGNITION_TIMEOUT',
    message: 'the model server did not answer in time',
    template:
      'the model server at {server} did not answer within {timeoutMs} ms; try again, or raise [openai] timeout_ms',
    fix: 'try again; if it recurs, raise [openai] timeout_ms or use a faster model',
  },
  STREAM_STALLED: {
    code: 'MIRA_ERR_COGNITION_STREAM_STALLED',
    message: 'a streamed answer stopped arriving before its end',
    template:
      'the model server at {server} sent nothing for {idleMs} ms in the middle of a streamed answer, so the answer was given up: the part received was dropped and none of its tool calls was run; try again, or raise [openai] stream_idle_ms for a model that pauses that long',
    fix: "try again; if it recurs, check the server's log, raise [openai] stream_idle_ms, or turn streaming off ([openai] stream = false)",
  },
  AUTH: {
    code: 'MIRA_ERR_COGNITION_AUTH',
    message: 'the model server refused the API key, or needs one that is not set',
    fix: 'set the variable [openai] api_key_env names (OPENAI_API_KEY by default) to a key the server accepts',
    situations: {
      keyMissing: {
        message:
          'the model server at {server} refused the request ({status}); it needs an API key: set {variable} in the environment',
        fix: 'set the variable [openai] api_key_env names (OPENAI_API_KEY by default) to a key the server accepts',
      },
      keyRefused: {
        message: 'the model server at {server} refused the request ({status}); check the key in {variable}',
        fix: 'the key was sent and refused: put one the server accepts in that variable, or point [openai] api_key_env at the variable that holds it',
      },
    },
  },
  MALFORMED: {
    code: 'MIRA_ERR_COGNITION_MALFORMED',
    message: 'the model answered with something that is neither text nor a valid tool call',
    fix: 'try again, or use a model that supports strict function tools',
    situations: {
      noReply: 'the model answered with neither text nor a tool call; the episode ended without a reply',
      noChoices: {
        message: 'the model server answered without a message (no choices); the episode ended',
        fix: "try again; if it recurs, check the server's log: it answered an empty completion",
      },
      notFunctionCall: {
        message: 'the model server sent a tool call that is not a function call; the episode ended',
        fix: 'use a server and model that send function tool calls (Chat Completions with tools)',
      },
      unreadable: {
        message: "the model server's answer could not be understood ({answer}); the episode ended",
        fix: 'check that [openai] base_url points at an OpenAI-compatible /v1 endpoint, not another service',
      },
      streamedToolCall: {
        message: 'the model server streamed a tool call without an id or name; the episode ended',
        fix: 'try again; if it recurs, turn streaming off ([openai] stream = false) or update the server',
      },
    },
  },
  CONTEXT_OVERFLOW: {
    code: 'MIRA_ERR_COGNITION_CONTEXT_OVERFLOW',
    message: "the request did not fit in the model's context",
    fix: "raise the server's context size (llama-server -c) or lower [openai] max_tokens, or say less at once; Mira already left out working memory and shortened the episode's tool results",
    template:
      'the model server at {server} refused the request as longer than its context ({status}): {answer}; it did not fit even with working memory left out and the tool results shortened',
  },
  STEP_LIMIT: {
    code: 'MIRA_ERR_COGNITION_STEP_LIMIT',
    message: 'an episode reached its bound on model calls without a reply',
    fix: 'ask again more simply',
    template:
      'the episode reached its bound of {maxSteps} model calls without a reply and was stopped; ask again more simply',
  },
  DUPLICATE_PROVIDER: {
    code: 'MIRA_ERR_COGNITION_DUPLICATE_PROVIDER',
    message: 'two plugins registered a cognition provider',
    fix: 'keep one cognition plugin in the profile',
    template:
      'plugin {owner} registered a cognition provider, but plugin {owner2} already did; keep one cognition plugin in the profile',
  },
});

/** The cognition codes by key. */
export const CognitionErrorCodes = CognitionErrors.codes;
/** Every cognition error code. */
export type CognitionErrorCode = (typeof CognitionErrorCodes)[keyof typeof CognitionErrorCodes];
