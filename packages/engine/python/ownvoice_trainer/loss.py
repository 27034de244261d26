"""loss: the cross-entropy of examples packed into one row, and the gradient of a batch's mean.

Data: JSON lines {"input": [ids], "target": [ids]}; an example is (ids, n_in), ids cut to seq_len,
and the loss counts target tokens only (for full training, input is empty and every token is a
target). A batch is packed: its sequences end to end in one row, each attending only to itself,
and logits are computed only where a target is predicted. The row is padded only where the CPU
multiplies in bfloat16, to a row count its products run at full speed (precision.row_multiple).
Shapes: N tokens of the packed row, M target tokens, C embedding, V vocab.
"""
import json

import torch
import torch.nn.functional as F

from .precision import row_multiple


def read_examples(path, seq_len):
    """-> the file's examples as (ids, n_in): input then target ids, cut to seq_len; n_in of them
    input. An example whose target is cut off entirely is left out."""
    out = []
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            ex = json.loads(line)
            ids = (ex.get("input") or []) + ex["target"]
            n_in = len(ex.get("input") or [])
            ids = ids[:seq_len]
            if len(ids) - n_in < 1:
                continue  # nothing of the target fits
            out.append((ids, n_in))
    if not out:
        raise ValueError(f"{path} holds no usable examples")
    return out


def targets_in(example):
    """Target tokens an example is scored on (as pack labels them)."""
    ids, n_in = example
    return len(ids) - 1 - max(n_in - 1, 0)


def pack(examples, multiple=1):
    """The examples end to end: idx (1, N), labels (1, N) with -100 where the next token is not a
    target of the same example, and each example's (start, end) span in the row. With a multiple,
    N is rounded up to it by pad tokens at the end of the last example's span: they come after
    every real position, so no real position attends to them, and no target is predicted there."""
    ids_all, labels_all, segments = [], [], []
    for ids, n_in in examples:
        start = len(ids_all)
        ids_all += ids
        # position p predicts token p+1; count it when token p+1 is a target token
        labels = [-100] * len(ids)
        for p in range(max(n_in - 1, 0), len(ids) - 1):
            labels[p] = ids[p + 1]
        labels_all += labels
        segments.append((start, start + len(ids)))
    pad = -len(ids_all) % multiple
    if pad:
        ids_all += [0] * pad  # token 0 is in every vocabulary; what it is does not matter
        labels_all += [-100] * pad
        segments[-1] = (segments[-1][0], len(ids_all))
    return torch.tensor([ids_all]), torch.tensor([labels_all]), segments


def token_losses(model, examples, multiple=None):
    """-> cross-entropy of every target token of the examples, packed (M,), and each example's count.
    multiple: rows rounded up to it (pack); by default row_multiple's for the device."""
    device = model.tok_embd.device
    multiple = row_multiple(device) if multiple is None else multiple
    idx, labels, segments = pack(examples, multiple)
    # Which positions count is known on the host before anything runs: worked out there, the
    # device gathers them without a round trip (a boolean mask on the device would wait for it).
    counted = labels[0] != -100  # (N,)
    where = counted.nonzero().squeeze(1)  # (M,)
    targets = labels[0, counted]  # (M,)
    counts = [int(counted[s:e].sum()) for s, e in segments]
    M = where.shape[0]
    extra = -M % multiple  # rows of the logits' product rounded up too: the last position again, not counted
    if extra:
        where = torch.cat([where, where[-1:].expand(extra)])
        targets = torch.cat([targets, torch.full((extra,), -100, dtype=targets.dtype)])
    h = model.hidden(idx.to(device), segments)  # (1, N, C)
    # Only predicted positions need the vocabulary-wide projection: (M, C) -> (M, V).
    where = where.to(device, non_blocking=True)
    logits = model.logits(h[0].index_select(0, where))
    targets = targets.to(device, non_blocking=True)
    return F.cross_entropy(logits, targets, reduction="none")[:M], counts


def loss_sum(model, examples):
    """-> (summed cross-entropy over the examples' target tokens, number of target tokens)."""
    losses, counts = token_losses(model, examples)
    return losses.sum(), sum(counts)


def accumulate_gradients(model, parts, count, bf16):
    """Backward through each micro-batch of parts in turn, adding to .grad the gradient of its
    summed loss / count (the batch's target tokens: the mean over the whole batch, a micro-batch's
    activations in memory at a time). -> their loss / count, summed on the device: reading each
    micro-batch's loss would make the host wait for the device every time."""
    device = model.tok_embd.device
    loss = torch.zeros((), device=device)
    for part in parts:
        with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=bf16):
            part_sum, _ = loss_sum(model, part)
        (part_sum / count).backward()
        loss += part_sum.detach().float() / count
    return loss


def unpacked_loss(model, example):
    """Mean cross-entropy of one example on its own through the model's plain forward pass (the
    reference the packed path is checked against)."""
    ids, n_in = example
    idx = torch.tensor([ids], device=model.tok_embd.device)  # (1, T)
    labels = torch.full_like(idx, -100)
    for p in range(max(n_in - 1, 0), len(ids) - 1):
        labels[0, p] = ids[p + 1]
    logits = model(idx)  # (1, T, V)
    return F.cross_entropy(logits.view(-1, logits.shape[-1]), labels.view(-1), ignore_index=-100)
