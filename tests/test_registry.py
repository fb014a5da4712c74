import pytest

import symcomp
from symcomp.core.registry import load_plugins
from symcomp.errors import LanguageNotFoundError, SemanticsError, SymcompError


class Echo(symcomp.Semantics):
    def pair(self, children):
        return children[0] + children[1]


def language(name: str) -> symcomp.Language:
    return symcomp.Language.from_grammar(
        name,
        'start: word word -> pair\nword: WORD\nWORD: /[a-z]+/\n%ignore " "\n',
        semantics=Echo,
        lexicon={"WORD": ["x", "y"]},
    )


def test_register_and_get():
    lang = symcomp.register(language("reg-test"), replace=True)
    assert symcomp.get_language("reg-test") is lang
    assert "reg-test" in symcomp.available()
    with pytest.raises(SymcompError, match="already registered"):
        symcomp.register(language("reg-test"))


def test_unknown_language_is_a_key_error_with_suggestions():
    with pytest.raises(LanguageNotFoundError, match="did you mean 'pcfg-set'") as info:
        symcomp.get_language("pcfg-sett")
    assert isinstance(info.value, KeyError)


def test_semantics_must_cover_every_multi_child_alias():
    with pytest.raises(SemanticsError, match=r"no method for pair \(.*:1\)"):
        symcomp.Language.from_grammar(
            "incomplete",
            'start: word word -> pair\nword: WORD\nWORD: /[a-z]+/\n%ignore " "\n',
            semantics=symcomp.Semantics,
            lexicon={"WORD": ["x"]},
        )


def test_semantic_failures_name_the_node():
    class Failing(symcomp.Semantics):
        def pair(self, children):
            raise ZeroDivisionError("boom")

    lang = symcomp.Language.from_grammar(
        "failing",
        'start: word word -> pair\nword: WORD\nWORD: /[a-z]+/\n%ignore " "\n',
        semantics=Failing,
        lexicon={"WORD": ["x"]},
    )
    with pytest.raises(SemanticsError, match=r"Failing failed at node 'pair'.*boom"):
        lang.interpret("x x")


def test_plugins_load_once_and_report_bad_paths(tmp_path):
    with pytest.raises(SymcompError, match="cannot load plugin"):
        load_plugins([str(tmp_path / "missing.py")])


def test_language_from_files(tmp_path):
    (tmp_path / "pair.lark").write_text(
        'start: word word -> pair\nword: WORD\nWORD: /[a-z]+/\n%ignore " "\n'
    )
    (tmp_path / "pair.toml").write_text('[language]\nversion = "2.0"\n[lexicon]\nWORD = ["q"]\n')
    lang = symcomp.Language.from_grammar("pair", tmp_path / "pair.lark", semantics=Echo)
    assert lang.version == "2.0"
    assert lang.sample(seed=1).input == "q q"
