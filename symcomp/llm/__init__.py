"""Pretrained language models: symcomp suites as lm-evaluation-harness tasks, and the
harness's logged answers read back for ``symcomp evaluate``."""
