#!/usr/bin/env python3
"""Writes Mira's test model: a tiny GGUF with random weights, for the real llama-server test tier.

No registry reachable here ships model weights, so the protocol is real and the answers are not. The model
has the llama architecture (2 layers, 64 wide), a SentencePiece-style vocabulary of the words of Mira's own
docs (every prefix of each word is a piece, so a word is one token and a prompt is about a quarter of its
bytes; a run of up to 16 spaces is one token), the control tokens of ChatML and Qwen2.5's chat template with tools (read from the llama.cpp
bundle), so llama-server --jinja renders the tools and parses <tool_call> answers with its grammar.

The weights are random, but one direction of the hidden state is kept constant and the output layer reads
it, so that, whatever the prompt, the model starts a tool call, ends its turn, or says one of a few words
with fixed odds: every kind of answer (text, tool calls, empty answers, answers cut at max_tokens) occurs.

usage: make-model.py --gguf-py DIR --template FILE --out FILE CORPUS...
"""
import argparse
import collections
import math
import re
import sys

import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument('--gguf-py', required=True)
parser.add_argument('--template', required=True)
parser.add_argument('--out', required=True)
parser.add_argument('--words', type=int, default=1500)
parser.add_argument('corpus', nargs='+')
args = parser.parse_args()
sys.path.insert(0, args.gguf_py)
import gguf  # noqa: E402  (from the bundle, found only once the path is known)

SPACE = '\u2581'  # SentencePiece's space
rng = np.random.default_rng(47)

# Vocabulary: control and byte tokens, the characters of the corpus, then every prefix of its common words.
text = '\n'.join(open(path, encoding='utf-8').read() for path in args.corpus)
words = collections.Counter(re.findall(r"[A-Za-z_]+|[0-9]|[^\sA-Za-z_0-9]", text))
T = gguf.TokenType
tokens, types, scores = [], [], []


def add(piece, kind=T.NORMAL, score=0.0):
    if piece in index:
        return index[piece]
    index[piece] = len(tokens)
    tokens.append(piece)
    types.append(kind)
    scores.append(score)
    return index[piece]


index = {}
add('<unk>', T.UNKNOWN)
for special in ['<|endoftext|>', '<|im_start|>', '<|im_end|>']:
    add(special, T.CONTROL)
for tag in ['<tool_call>', '</tool_call>', '<tool_response>', '</tool_response>', '<think>', '</think>']:
    add(tag, T.USER_DEFINED)
for byte in range(256):
    add(f'<0x{byte:02X}>', T.BYTE)
for char in sorted(set(text) - {' ', '\n'}) + [SPACE, '\n']:
    add(char, score=-100.0)
# Runs of spaces are one token, as in the tokenizers of today's models (Llama 3's and Qwen's BPE): templates that
# write the tools as indented JSON (Llama 3.x, granite: tojson(indent=4)) would otherwise cost a token a space.
for run in range(2, 17):
    add(SPACE * run, score=-50.0 + run)
for word, count in words.most_common(args.words):
    for start in ['', SPACE]:
        full = start + word
        for end in range(1, len(full) + 1):
            # Longer pieces score higher, so the tokenizer ends on whole words.
            add(full[:end], score=-100.0 + end + math.log(count))

n_vocab = len(tokens)
n_embd, n_layer, n_head, n_head_kv, n_ff, n_ctx = 64, 2, 4, 2, 128, 32768
head_dim = n_embd // n_head

writer = gguf.GGUFWriter(args.out, 'llama')
writer.add_name('mira-test-model (random weights)')
writer.add_context_length(n_ctx)
writer.add_embedding_length(n_embd)
writer.add_block_count(n_layer)
writer.add_feed_forward_length(n_ff)
writer.add_head_count(n_head)
writer.add_head_count_kv(n_head_kv)
writer.add_rope_dimension_count(head_dim)
writer.add_layer_norm_rms_eps(1e-5)
writer.add_vocab_size(n_vocab)
writer.add_file_type(gguf.LlamaFileType.ALL_F32)
writer.add_tokenizer_model('llama')
writer.add_token_list(tokens)
writer.add_token_scores(scores)
writer.add_token_types(types)
writer.add_bos_token_id(index['<|endoftext|>'])
writer.add_eos_token_id(index['<|im_end|>'])
writer.add_eot_token_id(index['<|im_end|>'])
writer.add_pad_token_id(index['<|endoftext|>'])
writer.add_unk_token_id(index['<unk>'])
writer.add_add_bos_token(False)
writer.add_add_eos_token(False)
writer.add_add_space_prefix(False)
writer.add_chat_template(open(args.template, encoding='utf-8').read())


def noise(*shape, scale=0.02):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


# Dimension 0 of every embedding is 1 and the layers barely move it, so after the final norm it is a
# constant the output layer turns into fixed preferences (log-odds against the ~n_vocab other tokens).
embedding = noise(n_vocab, n_embd)
embedding[:, 0] = 1.0
# Dimension 1 marks the token <tool_call>: the output layer reads it as "a newline comes next", because
# llama-server's grammar waits for the whole marker '<tool_call>\n' (as the template writes it) before it
# constrains the call. The layers are too weak to blur one position into the next.
embedding[index['<tool_call>'], 1] = 3.0
writer.add_tensor('token_embd.weight', embedding)
for layer in range(n_layer):
    writer.add_tensor(f'blk.{layer}.attn_norm.weight', np.ones(n_embd, dtype=np.float32))
    writer.add_tensor(f'blk.{layer}.attn_q.weight', noise(n_head * head_dim, n_embd))
    writer.add_tensor(f'blk.{layer}.attn_k.weight', noise(n_head_kv * head_dim, n_embd))
    writer.add_tensor(f'blk.{layer}.attn_v.weight', noise(n_head_kv * head_dim, n_embd))
    writer.add_tensor(f'blk.{layer}.attn_output.weight', noise(n_embd, n_head * head_dim))
    writer.add_tensor(f'blk.{layer}.ffn_norm.weight', np.ones(n_embd, dtype=np.float32))
    writer.add_tensor(f'blk.{layer}.ffn_gate.weight', noise(n_ff, n_embd))
    writer.add_tensor(f'blk.{layer}.ffn_up.weight', noise(n_ff, n_embd))
    writer.add_tensor(f'blk.{layer}.ffn_down.weight', noise(n_embd, n_ff))
writer.add_tensor('output_norm.weight', np.ones(n_embd, dtype=np.float32))
output = noise(n_vocab, n_embd)
# The normalised constant is about sqrt(n_embd) = 8: a weight w on dimension 0 is a logit of about 8 w.
mass = n_vocab / 0.05  # everything else keeps about 5% of the probability
preferred = {
    '<tool_call>': 0.25,
    '<|im_end|>': 0.15,
    '"': 0.04,  # strings inside a tool call end
}
chatter = [w for w, _ in words.most_common(60) if SPACE + w in index][:30]
for word in chatter:
    preferred[SPACE + word] = 0.5 / len(chatter)
for piece, share in preferred.items():
    output[index[piece], 0] = math.log(share * mass) / math.sqrt(n_embd)
output[index['\n'], 1] = 3.0
writer.add_tensor('output.weight', output)

writer.write_header_to_file()
writer.write_kv_data_to_file()
writer.write_tensors_to_file()
writer.close()
print(f'{args.out}: {n_vocab} tokens, {n_layer} layers of {n_embd}', file=sys.stderr)
