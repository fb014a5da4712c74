"""The prompt of an exported task: one template for the query and its demonstrations.

A demonstration is the query's template with its answer after it, exactly as the harness
renders its own few-shot examples (``doc_to_text``, then ``target_delimiter``, then
``doc_to_target``), so a prompt reads the same whether the harness drew its demonstrations
(``random``) or symcomp chose them per item (``similar``, ``cover``). The Jinja templates
below go into the task YAML unchanged; :func:`render` is their Python twin, which writes the
demonstrations into each item.

>>> sequence = PROMPTS["sequence"]
>>> print(render(sequence, {"input": "jump twice", "target": "I_JUMP I_JUMP"}, answered=True))
Input: jump twice
Output: I_JUMP I_JUMP
>>> print(render(sequence, {"input": "walk"}, answered=False))
Input: walk
Output:
>>> print(render(PROMPTS["worked"], {"input": "jump twice", "worked": "Step: jump = I_JUMP\\n"
...                                  "Answer: I_JUMP I_JUMP"}, answered=True))
Input: jump twice
Step: jump = I_JUMP
Answer: I_JUMP I_JUMP
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# the harness's defaults, kept: a space between the prompt and its answer, a blank line
# between demonstrations
TARGET_DELIMITER = " "
FEWSHOT_DELIMITER = "\n\n"
DEMONSTRATIONS = "demonstrations"  # the document field holding an item's demonstrations


@dataclass(frozen=True)
class Prompt:
    """A task's template: ``query`` is Jinja over document fields (``{{input}}``), and the
    answer is the field ``target`` (sequences) or the choice named by ``label`` (NLI)."""

    kind: str  # "sequence" or "worked" (generate_until) or "nli" (multiple_choice)
    query: str
    answer_field: str
    delimiter: str = TARGET_DELIMITER  # between a demonstration's query and its answer

    @property
    def doc_to_text(self) -> str:
        """The harness's ``doc_to_text``: the item's demonstrations, then its query."""
        return "{{" + DEMONSTRATIONS + "}}" + self.query


PROMPTS = {
    "sequence": Prompt("sequence", "Input: {{input}}\nOutput:", "target"),
    "nli": Prompt("nli", "Premise: {{premise}}\nHypothesis: {{hypothesis}}\nLabel:", "label"),
    # worked steps (`symcomp.core.steps`): the answer is the `worked` text, steps then answer,
    # on the lines after the input's; the task scores the answer line alone (its `target`)
    "worked": Prompt("worked", "Input: {{input}}\n", "worked", delimiter=""),
}

_FIELD = re.compile(r"\{\{(\w+)\}\}")
# a "{" and a carriage return as Jinja string literals (the literal's escape is Jinja's to decode)
_OPEN = '{{ "{" }}'
_RETURN = '{{ "\\r" }}'


def verbatim(text: str) -> str:
    r"""A Jinja template that renders as ``text`` itself, for a field the harness renders per
    document (``description``): every ``{`` (which could open ``{{``, ``{%`` or ``{#``) and every
    carriage return (which Jinja's lexer turns into a line feed) written as a Jinja string
    literal, so that no text can read a document's field (``{{target}}``) or break the template.

    >>> verbatim("Answer as {{ a list }}.")
    'Answer as {{ "{" }}{{ "{" }} a list }}.'
    >>> verbatim("Translate each sentence.")
    'Translate each sentence.'
    """
    return text.replace("{", _OPEN).replace("\r", _RETURN)


def render(prompt: Prompt, doc: Mapping[str, Any], *, answered: bool) -> str:
    """The query of ``doc`` (its fields in the template's places), with its answer after the
    target delimiter when ``answered``: a demonstration."""
    text = _FIELD.sub(lambda match: str(doc[match.group(1)]), prompt.query)
    if answered:
        text += prompt.delimiter + str(doc[prompt.answer_field])
    return text


def demonstration_block(prompt: Prompt, demonstrations: list[Mapping[str, Any]]) -> str:
    """The text that precedes an item's query: each demonstration answered, each followed by
    the few-shot delimiter (empty without demonstrations).

    >>> demonstration_block(PROMPTS["sequence"], [{"input": "run", "target": "I_RUN"}])
    'Input: run\\nOutput: I_RUN\\n\\n'
    """
    return "".join(render(prompt, doc, answered=True) + FEWSHOT_DELIMITER for doc in demonstrations)
