"""Random-weight llama models of real shapes, as GGUF, for measuring speed where no weights can be
downloaded (a GPU machine without network, CI). Timing depends on the shapes, not on the values.

Shapes are those of SmolLM2's configs (the default base model is SmolLM2-360M-Instruct; 135M is
its smaller sibling), and `tiny` for a test that runs in seconds on a CPU.
"""
import numpy as np

from .gguf_writer import write_gguf

SHAPES = {
    # n_layer, n_embd, n_ff, n_head, n_head_kv, n_vocab: SmolLM2-135M's config.json
    "135m": dict(n_layer=30, n_embd=576, n_ff=1536, n_head=9, n_head_kv=3, n_vocab=49152),
    # SmolLM2-360M's config.json
    "360m": dict(n_layer=32, n_embd=960, n_ff=2560, n_head=15, n_head_kv=5, n_vocab=49152),
    "tiny": dict(n_layer=2, n_embd=64, n_ff=128, n_head=4, n_head_kv=2, n_vocab=512),
}


def write_random_llama(path, shape, seed=0, dtype=np.float16):
    """Writes a llama GGUF of `shape` (a SHAPES key) with weights ~ N(0, 0.02), tied embeddings.
    -> the shape's dict."""
    s = SHAPES[shape]
    rng = np.random.default_rng(seed)
    C, F, H, K, V = s["n_embd"], s["n_ff"], s["n_head"], s["n_head_kv"], s["n_vocab"]
    D = C // H
    w = lambda *shape_: (rng.standard_normal(shape_, dtype=np.float32) * 0.02).astype(dtype)  # noqa: E731
    tensors = {"token_embd.weight": w(V, C), "output_norm.weight": np.ones(C, np.float32)}
    for i in range(s["n_layer"]):
        p = f"blk.{i}."
        tensors.update({
            p + "attn_norm.weight": np.ones(C, np.float32),
            p + "ffn_norm.weight": np.ones(C, np.float32),
            p + "attn_q.weight": w(H * D, C),  # (out, in)
            p + "attn_k.weight": w(K * D, C),
            p + "attn_v.weight": w(K * D, C),
            p + "attn_output.weight": w(C, H * D),
            p + "ffn_gate.weight": w(F, C),
            p + "ffn_up.weight": w(F, C),
            p + "ffn_down.weight": w(C, F),
        })
    kv = {
        "general.architecture": "llama",
        "general.name": f"random {shape}",
        "llama.block_count": s["n_layer"],
        "llama.embedding_length": C,
        "llama.feed_forward_length": F,
        "llama.attention.head_count": H,
        "llama.attention.head_count_kv": K,
        "llama.attention.layer_norm_rms_epsilon": 1e-5,
        "llama.rope.freq_base": 100000.0,
        "llama.context_length": 8192,
        "tokenizer.ggml.model": "gpt2",
        "tokenizer.ggml.tokens": [f"<t{i}>" for i in range(V)],
    }
    write_gguf(path, kv, tensors)
    return s


def run_random_model(request, emit):
    """request: path, shape, seed -> done with the shape written."""
    shape = request.get("shape", "tiny")
    if shape not in SHAPES:
        raise ValueError(f"shape must be one of {', '.join(SHAPES)}")
    s = write_random_llama(request["path"], shape, int(request.get("seed", 0)))
    emit("done", path=request["path"], shape=shape, **s)
