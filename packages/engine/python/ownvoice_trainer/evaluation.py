"""evaluation: the mean loss per target token of held-out examples (training's early stopping and
its base-model measure, train.py), and the eval command that reports it with the perplexity."""
import math

import torch

from . import lora
from .loss import read_examples, targets_in, token_losses, unpacked_loss
from .model import load_model, pick_device
from .precision import row_multiple


def evaluate(model, examples, batch_size, packed=True, multiple=None):
    """-> mean cross-entropy per target token over the examples, and each example's own mean.
    multiple: packed rows rounded up to it (token_losses)."""
    model.eval()
    sums, counts = [], []
    with torch.no_grad():
        if packed:
            for i in range(0, len(examples), batch_size):
                losses, n = token_losses(model, examples[i : i + batch_size], multiple)
                sums += torch.stack([part.sum() for part in losses.split(n)]).tolist()  # one read a batch
                counts += n
        else:
            for ex in examples:
                counts.append(targets_in(ex))
                sums.append(float(unpacked_loss(model, ex)) * counts[-1] if counts[-1] else 0.0)
    model.train()
    return sum(sums) / max(sum(counts), 1), [s / max(n, 1) for s, n in zip(sums, counts)]


def run_eval(request, emit):
    """eval: mean loss per target token (and perplexity) of the model, with the adapter if given;
    "packed": false scores each example on its own through the plain forward pass; "row_multiple":
    packed rows padded to a multiple of it (by default as training pads them here)."""
    model = load_model(request["model"], pick_device(request.get("device")))
    if request.get("adapter"):
        lora.load_into(model, request["adapter"])
    examples = read_examples(request["examples"], int(request.get("seq_len", 256)))
    device = model.tok_embd.device
    multiple = int(request.get("row_multiple") or row_multiple(device))
    loss, per_example = evaluate(model, examples, int(request.get("batch_size", 8)), request.get("packed", True), multiple)
    emit("done", loss=loss, perplexity=math.exp(min(loss, 50)), examples=len(examples), example_losses=per_example,
         row_multiple=multiple)
