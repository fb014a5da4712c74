"""The registry of languages: built-ins, plugins and languages registered from Python.

Every installed language, built-in or third-party, is found the same way: through the
``symcomp.languages`` entry-point group (``name = "module:function"``; symcomp's own are listed
in its ``pyproject.toml``), and built on first use so ``symcomp --help`` stays fast. Languages
also arrive through plugin modules or ``.py`` files named by ``--plugin`` /
``SYMCOMP_PLUGINS``, or through :func:`register` from Python.

>>> "scan" in available()
True
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from importlib import metadata
from pathlib import Path
from types import ModuleType

from symcomp._util import did_you_mean
from symcomp.core.language import Language
from symcomp.errors import LanguageNotFoundError, SymcompError

Factory = Callable[[], Language]

_factories: dict[str, Factory | str] = {}
_languages: dict[str, Language] = {}
_loaded_plugins: set[str] = set()
ENTRY_POINT_GROUP = "symcomp.languages"
PLUGINS_VARIABLE = "SYMCOMP_PLUGINS"


def register(language: Language, *, replace: bool = False) -> Language:
    """Make ``language`` available by name to every symcomp tool; returns it.

    Raises
    ------
    SymcompError
        When the name is taken and ``replace`` is false.
    """
    if not replace and language.name in available():
        raise SymcompError(
            f"a language named {language.name!r} is already registered; pick another name or "
            f"pass replace=True."
        )
    _factories[language.name] = lambda: language
    _languages[language.name] = language
    return language


def available() -> list[str]:
    """Names of every registered language, sorted."""
    _load_entry_points()
    return sorted(_factories)


def get_language(name: str) -> Language:
    """The language registered under ``name`` (built on first use)."""
    if not isinstance(name, str):
        raise LanguageNotFoundError(
            f"a language is named by a string (see symcomp.available()), got {name!r}."
        )
    if name not in _languages:
        _load_entry_points()
        if name not in _factories:
            raise LanguageNotFoundError(
                f"unknown language {name!r}{did_you_mean(name, list(_factories))}; registered "
                f"languages: {', '.join(sorted(_factories))}. Define one with "
                f"symcomp.Language.from_grammar and load it as a plugin (`plugins`)."
            )
        _languages[name] = _build(_factories[name])
    return _languages[name]


@contextlib.contextmanager
def plugin_output() -> Iterator[None]:
    """What plugin code prints while it loads goes to stderr: stdout is the command's output
    (``--json``), which a plugin's greeting would corrupt.

    >>> import io
    >>> with contextlib.redirect_stderr(io.StringIO()) as err, plugin_output():
    ...     print("hello")
    >>> err.getvalue()
    'hello\\n'
    """
    with contextlib.redirect_stdout(sys.stderr):
        yield


def _build(factory: Factory | str) -> Language:
    with plugin_output():  # an entry point's module and factory are plugin code
        if isinstance(factory, str):
            module_name, _, function = factory.partition(":")
            built = getattr(importlib.import_module(module_name), function)()
        else:
            built = factory()
    if not isinstance(built, Language):
        raise SymcompError(f"language factory {factory!r} returned {built!r}, not a Language.")
    return built


def _load_entry_points() -> None:
    if "<entry-points>" in _loaded_plugins:
        return
    _loaded_plugins.add("<entry-points>")
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        _factories.setdefault(entry.name, entry.value)


def load_plugins(specs: Iterable[str]) -> None:
    """Import plugin modules (``pkg.module``) or files (``path/to/lang.py``) once each.

    A plugin registers its languages when imported (by calling :func:`register`).
    """
    for spec in specs:
        spec = spec.strip()
        if not spec or spec in _loaded_plugins:
            continue
        _loaded_plugins.add(spec)
        try:
            with plugin_output():
                if spec.endswith(".py") or os.sep in spec:
                    import_file(Path(spec))
                else:
                    importlib.import_module(spec)
        except SymcompError:
            raise
        except (ImportError, OSError, SyntaxError) as error:
            raise SymcompError(
                f"cannot load plugin {spec!r}: {error}. Give a module name or a .py file path."
            ) from None
        except SystemExit as error:  # sys.exit() in a plugin must not end symcomp in silence
            raise SymcompError(
                f"plugin {spec!r} called sys.exit({error.code!r}) while being imported; a plugin "
                f"registers languages and must not exit. Fix the plugin (run it with python to "
                f"see where)."
            ) from None
        except Exception as error:  # the plugin's own code failed, not symcomp's
            raise SymcompError(
                f"plugin {spec!r} raised {type(error).__name__} while being imported: {error}. "
                f"Fix the plugin (run it with python to see where)."
            ) from None


def load_plugins_from_environment() -> None:
    """Load the plugins listed in ``$SYMCOMP_PLUGINS`` (separated by ``os.pathsep``)."""
    value = os.environ.get(PLUGINS_VARIABLE, "")
    load_plugins(value.split(os.pathsep) if value else [])


def import_file(path: Path, prefix: str = "symcomp_plugin") -> ModuleType:
    """Import the Python file ``path`` as the module ``<prefix>_<stem>`` (plugins, and the
    ``python:FILE.py:FUNCTION`` extractors); OSError or ImportError when it cannot be."""
    if not path.is_file():
        raise OSError(f"no such file {path}")
    module_name = f"{prefix}_{path.stem}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module
