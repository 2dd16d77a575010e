"""What the layer tests of both packages share: which of a package's modules a module imports
(a Python module, stub or Cython file: its imports and cimports), the imports that go up from a
module's layer (a layer is a folder, or a module at the package's root), and the circles of
imports among its modules (inside a layer too)."""
import ast
import re
from pathlib import Path

CYTHON_SUFFIXES = (".pyx", ".pxd")
# A Cython import at a line's start (ast cannot parse Cython): `from MODULE cimport NAMES` or
# `from MODULE import NAMES` (bracketed names may run over lines), `cimport MODULES` or
# `import MODULES`.
CYTHON_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(?P<module>\.*[\w.]*)[ \t]+c?import[ \t]+"
    r"(?:\((?P<bracketed>[^)]*)\)|(?P<names>[^\n#]*))"
    r"|c?import[ \t]+(?P<modules>[^\n#]*))", re.MULTILINE)


def sources(folder: Path):
    """The Python modules, stubs and Cython files under `folder`, sorted."""
    return sorted(path for path in folder.rglob("*")
                  if path.suffix in (".py", ".pyi", *CYTHON_SUFFIXES))


def layer_of(layers, parts):
    """The index in `layers` (lowest first) of the module at `parts` under the package."""
    name = parts[0].split(".")[0]
    return next(level for level, names in enumerate(layers) if name in names)


def import_statements(path):
    """Each import (or cimport) of `path` as (level, module, names): the dots of a relative
    import, the module (None for `from . import`) and the names taken from it (None for
    `import module`)."""
    text = path.read_text()
    if path.suffix not in CYTHON_SUFFIXES:
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom):
                yield node.level, node.module, [alias.name for alias in node.names]
            elif isinstance(node, ast.Import):
                yield from ((0, alias.name, None) for alias in node.names)
        return
    for match in CYTHON_IMPORT.finditer(text):
        if match["modules"] is not None:
            yield from ((0, module, None) for module in listed(match["modules"]))
        else:
            module = match["module"].lstrip(".")
            yield (len(match["module"]) - len(module), module or None,
                   listed(match["bracketed"] or match["names"]))


def listed(names):
    """The names of a Cython import's list ("a, b as c": a and b)."""
    return [name.split()[0] for name in names.split(",") if name.strip()]


def imported(package, path):
    """The modules of `package` (a folder; as paths of parts under it) that `path` imports."""
    parts = path.relative_to(package).parts
    here = list(parts[:-1])
    for level, module, names in import_statements(path):
        if names is None:
            if module.split(".")[0] == package.name and "." in module:
                yield module.split(".")[1:]
            continue
        if level:
            base = here[:len(here) - (level - 1)] if level > 1 else here
            target = base + (module.split(".") if module else [])
        elif module and module.split(".")[0] == package.name:
            target = module.split(".")[1:]
        else:
            continue
        # `from X import a`: a is a module of X or a name in it (module_file tells)
        yield from (target + [name] for name in names)


def upward_imports(package: Path, layers, modules):
    """'module imports target' for every import of `modules` that goes to a higher layer."""
    found = []
    for path in modules:
        own = layer_of(layers, path.relative_to(package).parts)
        for target in imported(package, path):
            if layer_of(layers, target) > own:
                found.append(f"{path.relative_to(package)} imports {'.'.join(target)}")
    return found


def module_file(package: Path, parts):
    """The file of the module that `parts` (an imported name under `package`) lies in: the
    longest prefix of `parts` that is a module (Python or Cython) or a folder (its __init__.py)."""
    parts = list(parts)
    while parts:
        place = package.joinpath(*parts)
        for suffix in (".py", ".pyx"):
            if place.with_suffix(suffix).is_file():
                return place.with_suffix(suffix)
        if (place / "__init__.py").is_file():
            return place / "__init__.py"
        parts.pop()
    return package / "__init__.py"


def import_circles(package: Path, modules):
    """Every circle of imports among `modules` (imports inside functions count: they tie the
    two modules as much), each as the list of its modules' paths under `package`."""
    arrows = {path: {module_file(package, target) for target in imported(package, path)} - {path}
              for path in modules}
    circles, on_path, done = [], [], set()

    def walk(path):
        on_path.append(path)
        for target in sorted(arrows[path]):
            if target in on_path:
                circle = on_path[on_path.index(target):]
                circles.append([str(module.relative_to(package)) for module in circle])
            elif target not in done and target in arrows:
                walk(target)
        on_path.pop()
        done.add(path)

    for path in sorted(arrows):
        if path not in done:
            walk(path)
    return circles
