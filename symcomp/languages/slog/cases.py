"""SLOG's 17 generalisation cases and the groups the report card breaks them down by.

The groups are the four kinds of structure the cases test (Li et al. 2023, Table 2 describes
each case): a PP or a relative clause in a grammatical role where train never has one, new
wh-questions and gap positions, and recursion deeper or shallower than train's.

>>> len(GEN_CASES), sorted(set(GROUPS.values()))
(17, ['PP', 'RC', 'question', 'recursion'])
"""

from __future__ import annotations

GROUPS = {
    "PP_modif_iobj": "PP",
    "PP_modif_subj": "PP",
    "RC_iobj_extracted": "RC",
    "RC_modif_iobj": "RC",
    "RC_modif_subj": "RC",
    "Q_dobj_ditransV": "question",
    "Q_iobj_ditransV": "question",
    "Q_long_mv": "question",
    "Q_modified_NPs": "question",
    "Q_subj_active": "question",
    "Q_subj_passive": "question",
    "CP_3": "recursion",
    "CP_5-12": "recursion",
    "PP_3": "recursion",
    "PP_5-12": "recursion",
    "center_embed_3": "recursion",
    "center_embed_5-12": "recursion",
}
GEN_CASES = tuple(GROUPS)
