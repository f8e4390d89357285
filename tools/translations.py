"""The translations: extract the words from the code, update each language's
``.po``, compile them (Babel: the ``test`` extra).

    python tools/translations.py extract     # locale/messages.pot from scenes/
    python tools/translations.py update      # every locale/<code>/LC_MESSAGES/roundtable.po
    python tools/translations.py compile     # roundtable.mo beside each .po (the built app)
    python tools/translations.py             # all three

Strings are found where they go through the one door (``scenes.store.words``):
``_("…")``, ``N_("…")``, ``ngettext("…", "…", n)`` and ``Nn_("…", "…")``. A message that left the
code is dropped from the ``.po`` files (obsolete); a new one is added empty, and
the app shows it in English until it is translated (tests/scenes/test_words.py
says which are missing).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "locale"
POT = LOCALE / "messages.pot"
SOURCES = ("scenes",)
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "Nn_": (1, 2)}


def _babel():
    try:
        from babel.messages import extract, mofile, pofile
        from babel.messages.catalog import Catalog
    except ImportError:
        raise SystemExit("translations: Babel is not installed: pip install '.[test]'") from None
    return extract, pofile, mofile, Catalog


def extract_catalog():
    """Every message of the code, as a Babel catalog (no file written)."""
    extract, _pofile, _mofile, Catalog = _babel()
    catalog = Catalog(project="Round Table", charset="utf-8")
    for source in SOURCES:
        for path, lineno, message, comments, context in extract.extract_from_dir(
                ROOT / source, method_map=[("**.py", "python")], keywords=KEYWORDS):
            catalog.add(message, locations=[(f"{source}/{path}", lineno)],
                        auto_comments=comments, context=context,
                        flags=("python-brace-format",) if "{" in str(message) else ())
    return catalog


def languages() -> list[str]:
    return sorted(p.name for p in LOCALE.iterdir() if (p / "LC_MESSAGES").is_dir())


def write_po(path: Path, catalog) -> None:
    _extract, pofile, _mofile, _catalog = _babel()
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as out:
        pofile.write_po(out, catalog, width=100, sort_output=False, omit_header=False,
                        ignore_obsolete=True)


def extract() -> None:
    write_po(POT, extract_catalog())
    print(f"translations: {POT.relative_to(ROOT)}")


def update() -> None:
    _extract, pofile, _mofile, Catalog = _babel()
    with open(POT, "rb") as pot:
        template = pofile.read_po(pot)
    for code in languages():
        path = LOCALE / code / "LC_MESSAGES" / "roundtable.po"
        if path.exists():
            with open(path, "rb") as po:
                catalog = pofile.read_po(po, locale=code)
        else:
            catalog = Catalog(locale=code, project="Round Table", charset="utf-8")
        catalog.update(template, no_fuzzy_matching=True)
        write_po(path, catalog)
        print(f"translations: {path.relative_to(ROOT)}")


def compile_all(root: Path = LOCALE) -> list[Path]:
    """roundtable.mo beside every roundtable.po under ``root`` (the built app's copy)."""
    _extract, pofile, mofile, _catalog = _babel()
    made = []
    for path in sorted(root.glob("*/LC_MESSAGES/roundtable.po")):
        with open(path, "rb") as po:
            catalog = pofile.read_po(po, locale=path.parent.parent.name)
        with open(path.with_suffix(".mo"), "wb") as mo:
            mofile.write_mo(mo, catalog)
        made.append(path.with_suffix(".mo"))
    return made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Extract, update and compile the translations.")
    parser.add_argument("step", nargs="?", choices=("extract", "update", "compile", "all"), default="all")
    step = parser.parse_args(argv).step
    if step in ("extract", "all"):
        extract()
    if step in ("update", "all"):
        update()
    if step in ("compile", "all"):
        for path in compile_all():
            print(f"translations: {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
