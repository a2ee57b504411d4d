/**
 * A reply without the model's thinking: `<think>…</think>` blocks (Qwen3, DeepSeek-R1 and others write
 * them into the content when the server does not split them out as `reasoning_content`) are removed,
 * and an unclosed `<think>` drops everything after it. Thinking is never the reply: it is not printed,
 * not kept in working memory, and so never evidence.
 *
 * @example
 * withoutThinking('<think>the operator wants tea</think>Tea it is.'); // 'Tea it is.'
 */
export function withoutThinking(text: string | null): string | null {
  if (text === null) return null;
  const closed = text.replace(/<think>[\s\S]*?<\/think>/g, '');
  const open = closed.indexOf('<think>');
  return open === -1 ? closed : closed.slice(0, open);
}
