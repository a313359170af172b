"""The build step pyproject.toml cannot declare: compile the message catalogs.

Every ``sos_tui/locale/<lang>/LC_MESSAGES/sos_tui.po`` is compiled to its ``.mo`` with Babel
(a build requirement) whenever the package is built, so ``pip install .`` gives a working Malay
UI with no extra step. An editable install (``pip install -e .``) writes the ``.mo`` beside the
``.po`` in the checkout (ignored by git); a normal install writes it into the built package.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class build_py_with_catalogs(build_py):
    def run(self) -> None:
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        target = HERE if self.editable_mode else Path(self.build_lib)
        for po in sorted(HERE.glob("sos_tui/locale/*/LC_MESSAGES/*.po")):
            mo = target / po.relative_to(HERE).with_suffix(".mo")
            mo.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as source:
                catalog = read_po(source, locale=po.parent.parent.name)
            with mo.open("wb") as out:
                write_mo(out, catalog)  # fuzzy entries are left out, as msgfmt does


setup(cmdclass={"build_py": build_py_with_catalogs})
